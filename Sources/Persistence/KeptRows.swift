import CSQLite
import Synchronization

/// Rows read by readers, each kept with the region it read and the generation it was read at, and
/// served again while nothing in that region changed since (`ChangeClock`): a query's result
/// (`Connection.fetchAllKept`), such as which names match a search while activities are checked
/// off, and a record read by rowid (`Connection.fetchKept`), such as the trips a page shows while
/// other trips change. One budget for both; past it the least recently used go.
final class KeptRows: Sendable {
    /// The table and selection records are read with.
    struct RecordKind: Hashable, Sendable {
        let table: String
        let selection: String

        /// Not the selection's text, hashed on every read: its length tells kinds apart enough.
        func hash(into hasher: inout Hasher) {
            hasher.combine(table)
            hasher.combine(selection.utf8.count)
        }
    }

    enum Key: Hashable, Sendable {
        case query(sql: String, arguments: [DatabaseValue])
        case record(RecordKind, rowID: Int64)
    }

    private struct Entry {
        let rows: [Row]
        let region: DatabaseRegion
        /// The generation loaded before the snapshot the rows were read in.
        let generation: UInt64
    }

    /// Values kept, counted as columns of rows: a few screens' records and a few search pages' matches.
    static let maxValues = 65_536

    private let clock: ChangeClock
    private let schema: ObservableSchema
    private let entries = Mutex(LeastRecentlyUsed<Key, Entry>(capacity: maxValues, maxCost: maxValues))
    /// Queries run and records read rather than served as kept (for tests).
    let queriesRun = Atomic<Int>(0)
    let recordsRead = Atomic<Int>(0)

    init(clock: ChangeClock, schema: ObservableSchema) {
        self.clock = clock
        self.schema = schema
    }

    /// Only the history's tables have their rows told by commits.
    func keepsRecords(of table: String) -> Bool {
        schema.trackedTables.contains(table)
    }

    /// The rows kept for each of `keys` that are current as seen from a snapshot begun after
    /// loading `generation`, by key.
    private func current(_ keys: [Key], snapshotGeneration generation: UInt64) -> [Key: Entry] {
        let candidates = entries.withLock { entries in keys.compactMap { key in entries.use(key).map { (key, $0) } } }
        let changes = clock.lastChanges(of: candidates.map(\.1.region))
        var found: [Key: Entry] = [:]
        for ((key, entry), lastChange) in zip(candidates, changes) where lastChange <= min(entry.generation, generation) {
            found[key] = entry
        }
        return found
    }

    /// Keeps `rows` for `key`, read in a snapshot begun after loading `generation`.
    private func keep(_ rows: [Row], region: DatabaseRegion, for key: Key, readAt generation: UInt64) {
        let cost = rows.reduce(1) { $0 + $1.count }
        entries.withLock { $0.insert(Entry(rows: rows, region: region, generation: generation), cost: cost, for: key) }
    }

    /// The rows kept for `key` if still current, else `fetch`'s, kept; with their observable region.
    func rows(for key: Key, snapshotGeneration generation: UInt64,
              fetch: () throws -> ([Row], DatabaseRegion)) rethrows -> (rows: [Row], region: DatabaseRegion) {
        if let entry = current([key], snapshotGeneration: generation)[key] { return (entry.rows, entry.region) }
        queriesRun.add(1, ordering: .relaxed)
        let (rows, region) = try fetch()
        let observable = schema.observableRegion(of: region)
        keep(rows, region: observable, for: key, readAt: generation)
        return (rows, observable)
    }

    /// The rows of `kind` with these rowids kept and current, by rowid; `read` reads the others
    /// (by rowid), which are kept.
    func records(of kind: RecordKind, rowIDs: [Int64], snapshotGeneration generation: UInt64,
                 read: ([Int64]) throws -> [Int64: Row]) rethrows -> [Int64: Row] {
        var found: [Int64: Row] = [:]
        for (key, entry) in current(rowIDs.map { .record(kind, rowID: $0) }, snapshotGeneration: generation) {
            if case .record(_, let rowID) = key { found[rowID] = entry.rows.first }
        }
        let missing = rowIDs.filter { found[$0] == nil }
        guard !missing.isEmpty else { return found }
        let read = try read(missing)
        recordsRead.add(read.count, ordering: .relaxed)
        for (rowID, row) in read {
            keep([row], region: DatabaseRegion(table: kind.table, rowIDs: [rowID]), for: .record(kind, rowID: rowID), readAt: generation)
        }
        return found.merging(read) { _, new in new }
    }
}

extension Connection {
    /// The records of `table` with these rowids, in their order (a missing row left out), each
    /// kept across commits that do not change its row: the rows a kept `fetchAllKept` list of ids
    /// names, read once while other rows change. `selection` is the columns `Record` reads.
    /// A tracked read depends on these rows, whole. Outside a reader's transaction, or for a table
    /// the history does not track, a plain read.
    @inlinable
    public func fetchKept<Record: FetchableRecord>(_ type: Record.Type, from table: String, select selection: String,
                                                   rowIDs: [Int64]) throws -> [Record] {
        try fetchKeptRows(from: table, select: selection, rowIDs: rowIDs).map(Record.init(row:))
    }

    /// The records whose rowids `idsSQL` selects (its first column), in its order. Which rows a
    /// list shows (`fetchAllKept`) and what each shows (`fetchKept`) are kept apart: a commit that
    /// changes one row's other columns (a check-off) leaves the list, and every other record, as read.
    @inlinable
    public func fetchKept<Record: FetchableRecord>(_ type: Record.Type, from table: String, select selection: String,
                                                   idsFrom idsSQL: String, _ arguments: [any DatabaseValueConvertible] = []) throws -> [Record] {
        let ids = try fetchAllKept(idsSQL, arguments).map { try $0.decode(at: 0, as: Int64.self) }
        return try fetchKept(type, from: table, select: selection, rowIDs: ids)
    }

    @usableFromInline
    func fetchKeptRows(from table: String, select selection: String, rowIDs: [Int64]) throws -> [Row] {
        let sql = "SELECT \(table).rowid AS kept_row_id, \(selection) FROM \(table) WHERE \(table).rowid IN "
        func read(_ rowIDs: [Int64]) throws -> [Int64: Row] {
            guard !rowIDs.isEmpty else { return [:] }
            var read: [Int64: Row] = [:]
            for row in try fetchAll(sql + "(\(sqlPlaceholders(rowIDs.count)))", rowIDs) {
                read[try row.decode(at: 0, as: Int64.self)] = row
            }
            return read
        }
        guard let keptRows, let generation = snapshotGeneration, keptRows.keepsRecords(of: table) else {
            let found = try read(rowIDs)
            return rowIDs.compactMap { found[$0] }
        }
        try beginSnapshot()
        // Kept or read, what an enclosing tracking depends on is these rows, not the columns the
        // statement reads across the table.
        let enclosing = authorizer.trackedRegion
        let found = try keptRows.records(of: KeptRows.RecordKind(table: table, selection: selection), rowIDs: rowIDs,
                                         snapshotGeneration: generation, read: read)
        authorizer.trackedRegion = enclosing?.union(DatabaseRegion(table: table, rowIDs: Set(rowIDs)))
        return rowIDs.compactMap { found[$0] }
    }

    /// Begins the read transaction's snapshot if no statement has yet: kept values must be checked
    /// against the commits after the snapshot began, else a commit landing between the check and
    /// the first read would be seen by the snapshot but not by the check.
    func beginSnapshot() throws {
        if sqlite3_txn_state(handle, "main") == SQLITE_TXN_NONE {
            _ = try fetchOne("SELECT 1 FROM sqlite_schema LIMIT 1")
        }
    }

    /// The rows of `sql`, kept across commits that change no table or column it reads: a commit
    /// that only updates other columns (a check-off, for a query of names) leaves them current.
    /// Outside a reader's transaction (on the writer) it is `fetchAll`.
    public func fetchAllKept(_ sql: String, _ arguments: [any DatabaseValueConvertible] = []) throws -> [Row] {
        guard let keptRows, let generation = snapshotGeneration else { return try fetchAll(sql, arguments) }
        try beginSnapshot()
        let key = KeptRows.Key.query(sql: sql, arguments: arguments.map(\.databaseValue))
        let (rows, region) = try keptRows.rows(for: key, snapshotGeneration: generation) {
            try trackingRegion { try fetchAll(sql, arguments) }
        }
        // Kept or not, what an enclosing `trackingRegion` (an observer's) depends on.
        authorizer.trackedRegion?.formUnion(region)
        return rows
    }
}
