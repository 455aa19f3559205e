/// Which part of a sectioned query to fetch, so the work is bounded however many rows match:
/// at most `sectionLimit` sections whose keys come after `after`, and the first
/// `recordsPerSection` records of each, with the section's full count.
///
/// Sections come in ascending key order, the section of rows without a key (NULL) last: the
/// "none" group every grouped list ends with. Pages are keyset-paged (`after` is the last key
/// shown), so a later page costs what the first does; with an index on the key, the keys are
/// found by a scan that stops after the page and each section's records by one range.
public struct SectionPaging: Sendable, Hashable {
    /// The key of the last section already shown; nil for the first page.
    public var after: DatabaseValue?
    public var sectionLimit: Int
    public var recordsPerSection: Int

    public init(after: DatabaseValue? = nil, sectionLimit: Int, recordsPerSection: Int) {
        self.after = after
        self.sectionLimit = sectionLimit
        self.recordsPerSection = recordsPerSection
    }
}

/// A page of sections, in order.
public struct SectionPage<Record: Sendable & Equatable>: Sendable, Equatable {
    public let sections: [RecordSection<Record>]
    /// Sections after these: ask again with `SectionPaging(after: sections.last?.key, …)`.
    public let hasMore: Bool

    public init(sections: [RecordSection<Record>], hasMore: Bool) {
        self.sections = sections
        self.hasMore = hasMore
    }
}

extension Connection {
    /// One page of the descriptor's sections (it must have a `sectionKey`; its `limit` is not
    /// used: `paging` bounds the page). Records within a section follow the descriptor's `orderBy`.
    public func fetchSections<Record: FetchableRecord & Sendable & Equatable>(
        _ type: Record.Type, _ descriptor: FetchDescriptor, paging: SectionPaging
    ) throws -> SectionPage<Record> {
        guard let sectionKey = descriptor.sectionKey else {
            throw DatabaseError.misuse("fetchSections needs a descriptor with a sectionKey", sql: descriptor.sql)
        }
        try refuseCodableAttributes(in: descriptor)
        let key = quotedIdentifier(sectionKey)
        let table = quotedIdentifier(descriptor.table)
        let matching = descriptor.predicate.map { "(\($0)) AND " } ?? ""
        // Keys in order, one more than the page to know whether more follow. The NULL section
        // comes after every key, so a cursor on it (or past it) leaves nothing.
        var keys: [(DatabaseValue, Int)] = []
        if paging.after != .null {
            var sql = "SELECT \(key) AS section_key, count(*) AS section_count FROM \(table) WHERE \(matching)\(key) IS NOT NULL"
            var arguments = descriptor.arguments as [any DatabaseValueConvertible]
            if let after = paging.after { sql += " AND \(key) > ?"; arguments.append(after) }
            sql += " GROUP BY \(key) ORDER BY \(key) LIMIT ?"
            arguments.append(paging.sectionLimit + 1)
            keys = try fetchAll(sql, arguments).map { row in
                (try row.decode("section_key", as: DatabaseValue.self), try row.decode("section_count", as: Int.self))
            }
            if keys.count <= paging.sectionLimit {
                let withoutKey = try fetchScalar(Int.self, "SELECT count(*) FROM \(table) WHERE \(matching)\(key) IS NULL",
                                                 descriptor.arguments) ?? 0
                if withoutKey > 0 { keys.append((.null, withoutKey)) }
            }
        }
        let hasMore = keys.count > paging.sectionLimit
        let sections = try keys.prefix(paging.sectionLimit).map { sectionKeyValue, count in
            var sql = "SELECT \(descriptor.columns) FROM \(table) WHERE \(matching)"
            var arguments = descriptor.arguments as [any DatabaseValueConvertible]
            if sectionKeyValue == .null {
                sql += "\(key) IS NULL"
            } else {
                sql += "\(key) = ?"
                arguments.append(sectionKeyValue)
            }
            if let orderBy = descriptor.orderBy { sql += " ORDER BY \(orderBy)" }
            sql += " LIMIT ?"
            arguments.append(paging.recordsPerSection)
            return RecordSection(key: sectionKeyValue, records: try fetchAll(Record.self, sql, arguments), count: count)
        }
        return SectionPage(sections: sections, hasMore: hasMore)
    }
}

extension ResultsObserver {
    /// Observes one page of a descriptor's sections.
    public convenience init<Record: FetchableRecord & Equatable & Sendable>(
        database: Database, sectionedDescriptor descriptor: FetchDescriptor, paging: SectionPaging
    ) throws where Value == SectionPage<Record> {
        try self.init(database: database) { connection in
            try connection.fetchSections(Record.self, descriptor, paging: paging)
        }
    }
}
