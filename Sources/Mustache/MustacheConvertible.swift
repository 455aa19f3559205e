/// A type that can be handed to a template.
public protocol MustacheConvertible {
    var mustacheValue: MustacheValue { get }
}

extension MustacheValue: MustacheConvertible {
    public var mustacheValue: MustacheValue { self }
}

extension String: MustacheConvertible {
    public var mustacheValue: MustacheValue { .string(self) }
}

extension Int: MustacheConvertible {
    public var mustacheValue: MustacheValue { .int(self) }
}

extension Int64: MustacheConvertible {
    public var mustacheValue: MustacheValue { .int(Int(self)) }
}

extension Double: MustacheConvertible {
    public var mustacheValue: MustacheValue { .double(self) }
}

extension Bool: MustacheConvertible {
    public var mustacheValue: MustacheValue { .bool(self) }
}

extension Optional: MustacheConvertible where Wrapped: MustacheConvertible {
    public var mustacheValue: MustacheValue { self?.mustacheValue ?? .null }
}

extension Array: MustacheConvertible where Element: MustacheConvertible {
    public var mustacheValue: MustacheValue { .array(map(\.mustacheValue)) }
}

extension Dictionary: MustacheConvertible where Key == String, Value: MustacheConvertible {
    public var mustacheValue: MustacheValue { .object(mapValues(\.mustacheValue)) }
}
