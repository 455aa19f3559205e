/// A query on one table as a value: which rows (predicate), in which order, how many, and
/// optionally grouped into sections by a column. Predicate and ordering are SQL fragments written
/// by the programmer; values always travel as bound `arguments`.
public struct FetchDescriptor: Sendable, Equatable {
    public var table: String
    /// The SQL after SELECT: `*`, or the columns the record reads (leaving out large ones).
    public var columns: String
    /// The SQL after WHERE, with `?` for each of `arguments`. Like `orderBy` and `sectionKey`, it
    /// must not read a codable attribute column: fetching throws `DatabaseError.misuse` then.
    public var predicate: String?
    public var arguments: [DatabaseValue]
    /// The SQL after ORDER BY.
    public var orderBy: String?
    public var limit: Int?
    /// A column to group consecutive rows by; the rows are ordered by it first.
    public var sectionKey: String?

    public init(table: String, columns: String = "*", predicate: String? = nil, arguments: [any DatabaseValueConvertible] = [],
                orderBy: String? = nil, limit: Int? = nil, sectionKey: String? = nil) {
        self.table = table
        self.columns = columns
        self.predicate = predicate
        self.arguments = arguments.map(\.databaseValue)
        self.orderBy = orderBy
        self.limit = limit
        self.sectionKey = sectionKey
    }

    public var sql: String {
        "SELECT \(columns) FROM \(quotedIdentifier(table))" + filterAndOrder + (limit != nil ? " LIMIT ?" : "")
    }

    /// The WHERE and ORDER BY clauses, each with a leading space; empty when there are none.
    var filterAndOrder: String {
        var sql = predicate.map { " WHERE \($0)" } ?? ""
        let ordering = [sectionKey.map(quotedIdentifier), orderBy].compactMap { $0 }
        if !ordering.isEmpty { sql += " ORDER BY " + ordering.joined(separator: ", ") }
        return sql
    }

    public var sqlArguments: [any DatabaseValueConvertible] {
        arguments + (limit.map { [$0] } ?? [])
    }
}

/// The records sharing one value of a descriptor's section key, in query order.
public struct RecordSection<Record: Sendable & Equatable>: Sendable, Equatable {
    /// The section's id: the section key's value.
    public let key: DatabaseValue
    public let records: [Record]
    /// How many records the section holds: more than `records` when a page fetched only the first.
    public let count: Int

    public init(key: DatabaseValue, records: [Record], count: Int? = nil) {
        self.key = key
        self.records = records
        self.count = count ?? records.count
    }

    /// Records of the section beyond those fetched.
    public var hasMore: Bool { count > records.count }
}

extension Connection {
    public func fetchAll<Record: FetchableRecord>(_ type: Record.Type, _ descriptor: FetchDescriptor) throws -> [Record] {
        try refuseCodableAttributes(in: descriptor)
        return try fetchAll(Record.self, descriptor.sql, descriptor.sqlArguments)
    }

    /// The selected records grouped by the descriptor's `sectionKey` (which it must have).
    public func fetchSections<Record: FetchableRecord & Sendable & Equatable>(_ type: Record.Type,
                                                       _ descriptor: FetchDescriptor) throws -> [RecordSection<Record>] {
        guard let sectionKey = descriptor.sectionKey else {
            throw DatabaseError.misuse("fetchSections needs a descriptor with a sectionKey", sql: descriptor.sql)
        }
        try refuseCodableAttributes(in: descriptor)
        var groups: [(key: DatabaseValue, records: [Record])] = []
        for row in try fetchAll(descriptor.sql, descriptor.sqlArguments) {
            let key = try row.decode(sectionKey, as: DatabaseValue.self)
            let record = try Record(row: row)
            if groups.last?.key == key {
                groups[groups.count - 1].records.append(record)
            } else {
                groups.append((key, [record]))
            }
        }
        return groups.map { RecordSection(key: $0.key, records: $0.records) }
    }
}
