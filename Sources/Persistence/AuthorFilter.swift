/// Whose history transactions a reader wants. Authors are opaque strings to this layer: a sync
/// client that writes as its own author asks for everything `.excluding` it, so it never reads
/// its own changes back.
public enum AuthorFilter: Sendable, Hashable, ExpressibleByArrayLiteral {
    case any
    case only(Set<String>)
    case excluding(Set<String>)

    /// `["app"]` reads as `.only(["app"])`.
    public init(arrayLiteral authors: String...) {
        self = .only(Set(authors))
    }

    public func matches(_ author: String) -> Bool {
        switch self {
        case .any: true
        case .only(let authors): authors.contains(author)
        case .excluding(let authors): !authors.contains(author)
        }
    }

    /// The condition on `column` and its arguments; nil when every author matches.
    func condition(on column: String) -> (sql: String, arguments: [String])? {
        switch self {
        case .any:
            nil
        case .only(let authors):
            ("\(column) IN (\(sqlPlaceholders(authors.count)))", authors.sorted())
        case .excluding(let authors) where authors.isEmpty:
            nil
        case .excluding(let authors):
            ("\(column) NOT IN (\(sqlPlaceholders(authors.count)))", authors.sorted())
        }
    }
}
