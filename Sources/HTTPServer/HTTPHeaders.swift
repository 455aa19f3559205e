/// Header fields in order, with case-insensitive lookup. A name may repeat (e.g. `Set-Cookie`).
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    public private(set) var fields: [(name: String, value: String)] = []

    public init() {}

    public init(dictionaryLiteral elements: (String, String)...) {
        // Room for what middleware adds on the way out (security headers, a cookie), so the
        // fields are not reallocated twice per response.
        fields.reserveCapacity(elements.count + 8)
        fields.append(contentsOf: elements.lazy.map { (name: $0.0, value: $0.1) })
    }

    /// The first value of the named field; setting replaces every field of that name.
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.caseInsensitiveEquals(name) }?.value }
        set {
            remove(name)
            if let newValue { fields.append((name: name, value: newValue)) }
        }
    }

    /// Every value of the named field, in order.
    public func all(_ name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// Adds a field, keeping any others of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// Adds each field of `defaults` whose name is not here yet, growing the storage once
    /// (setting them one by one searched and reallocated the fields for each).
    mutating func addAbsent(_ defaults: HTTPHeaders) {
        let ownCount = fields.count
        fields.reserveCapacity(ownCount + defaults.fields.count)
        for field in defaults.fields where !fields[..<ownCount].contains(where: { $0.name.caseInsensitiveEquals(field.name) }) {
            fields.append(field)
        }
    }

    public mutating func remove(_ name: String) {
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
    }

    public func contains(_ name: String) -> Bool { self[name] != nil }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }
}

extension String {
    /// ASCII case-insensitive comparison, as header names need (no locale, no allocation).
    func caseInsensitiveEquals(_ other: String) -> Bool {
        let lhs = utf8, rhs = other.utf8
        guard lhs.count == rhs.count else { return false }
        var left = lhs.makeIterator(), right = rhs.makeIterator()
        while let l = left.next(), let r = right.next() {
            if asciiLowercased(l) != asciiLowercased(r) { return false }
        }
        return true
    }
}

@inline(__always)
private func asciiLowercased(_ byte: UInt8) -> UInt8 {
    (byte >= 65 && byte <= 90) ? byte + 32 : byte
}
