/// A value a template can read: the only way data enters a template.
///
/// Not `indirect`: arrays and dictionaries already store their elements out of line, so
/// scalar cases stay unboxed and building a context allocates nothing per scalar.
public enum MustacheValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([MustacheValue])
    case object([String: MustacheValue])

    public init(_ value: some MustacheConvertible) {
        self = value.mustacheValue
    }

    /// Mustache truthiness: null, false, zero, the empty string and the empty list are falsy;
    /// everything else (objects included, even empty ones) is truthy.
    public var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let value): value
        case .int(let value): value != 0
        case .double(let value): value != 0
        case .string(let value): !value.isEmpty
        case .array(let values): !values.isEmpty
        case .object: true
        }
    }
}

extension MustacheValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .null }
}

extension MustacheValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension MustacheValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) { self = .int(value) }
}

extension MustacheValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension MustacheValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension MustacheValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: MustacheValue...) { self = .array(elements) }
}

extension MustacheValue: ExpressibleByDictionaryLiteral {
    /// A repeated key keeps its last value, as in a JSON object.
    public init(dictionaryLiteral elements: (String, MustacheValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
