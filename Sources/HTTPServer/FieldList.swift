/// Name/value pairs from a query string or a form, in order; a name may repeat.
public struct FieldList: Sendable, Sequence {
    public private(set) var pairs: [(name: String, value: String)]

    public init(_ pairs: [(name: String, value: String)] = []) {
        self.pairs = pairs
    }

    /// The first value of the name, if any.
    public subscript(name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// Every value of the name, in order (e.g. checkboxes, `?tag=a&tag=b`).
    public func all(_ name: String) -> [String] {
        pairs.filter { $0.name == name }.map(\.value)
    }

    public var isEmpty: Bool { pairs.isEmpty }

    mutating func append(_ name: String, _ value: String) {
        pairs.append((name: name, value: value))
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        pairs.makeIterator()
    }
}

public typealias QueryParameters = FieldList
public typealias FormFields = FieldList
