import CSQLite
import Synchronization

/// When each tracked table and column last changed, counted in `Database.generation`s: what
/// lets a result kept across commits tell whether one of them changed what it read.
///
/// A commit marks what it changes twice: as changing (`UInt64.max`, so nothing that reads it is
/// trusted) before its COMMIT, and with the generation it moved to once it has. So a reader whose
/// snapshot already holds the commit never takes a result from before it as current.
final class ChangeClock: Sendable {
    private struct Times {
        /// Another process' commit or a restore: anything may have changed.
        var everything: UInt64 = 0
        /// Rows inserted or deleted (or changed in a way no column tells).
        var rows: [String: UInt64] = [:]
        var columns: [String: [String: UInt64]] = [:]
        /// By table, when each row (by rowid) last changed; a row not listed changed at `rowFloor` at the latest.
        var rowIDs: [String: [Int64: UInt64]] = [:]
        var rowFloor: [String: UInt64] = [:]
    }

    private let times = Mutex(Times())
    /// Rows remembered per table; past it the table's floor rises to the newest and the list starts
    /// again (kept records of that table are then read again once).
    static let rowsRemembered = 4096

    /// Marks what `changes` name (nil: everything) as changed at `generation`, and the `rows`
    /// (rowids by table) changed then.
    func mark(_ changes: TableChanges?, rows: [String: [Int64]] = [:], at generation: UInt64) {
        times.withLock { times in
            for (table, rowIDs) in rows {
                // A floor left at "changing" by the same commit's first mark comes down with it.
                if generation != .max, times.rowFloor[table] == .max { times.rowFloor[table] = generation }
                // In place: a copy out and back would copy the table's remembered rows on every commit.
                if (times.rowIDs[table]?.count ?? 0) + rowIDs.count > Self.rowsRemembered {
                    times.rowFloor[table] = max(times.rowFloor[table] ?? 0, times.rowIDs[table]?.values.max() ?? 0, generation)
                    times.rowIDs[table] = [:]
                    continue
                }
                for rowID in rowIDs { times.rowIDs[table, default: [:]][rowID] = generation }
            }
            guard let changes else {
                times.everything = generation
                return
            }
            for table in changes.tables {
                if let updated = changes.updatedColumns[table] {
                    for column in updated { times.columns[table, default: [:]][column] = generation }
                } else {
                    times.rows[table] = generation
                }
            }
        }
    }

    /// The newest generation at which each row of `table` changed (or anything, for another process' commit).
    func lastChanges(ofRows rowIDs: [Int64], in table: String) -> [UInt64] {
        times.withLock { times in
            let floor = max(times.everything, times.rowFloor[table] ?? 0)
            let changed = times.rowIDs[table] ?? [:]
            return rowIDs.map { max(floor, changed[$0] ?? 0) }
        }
    }

    /// The newest generation at which something `region` reads changed: its columns, or one of its rows.
    func lastChange(of region: ReadRegion) -> UInt64 {
        region.rows.reduce(lastChange(of: region.columns)) { last, table in
            max(last, lastChanges(ofRows: Array(table.value), in: table.key).max() ?? 0)
        }
    }

    /// The newest generation at which something `region` reads changed.
    func lastChange(of region: DatabaseRegion) -> UInt64 {
        times.withLock { times in
            var last = times.everything
            if region.isFullDatabase {
                return ([last] + times.rows.values + times.columns.values.flatMap(\.values)).max()!
            }
            for table in region.tables {
                last = max(last, times.rows[table] ?? 0)
                let changed = times.columns[table] ?? [:]
                if let columns = region.columns(of: table) {
                    for column in columns { last = max(last, changed[column] ?? 0) }
                } else {
                    last = max(last, changed.values.max() ?? 0)
                }
            }
            return last
        }
    }
}

/// Query results kept across commits until one changes a table or column they read
/// (`Connection.fetchAllKept`): for a costly query over data that rarely changes beside data
/// that often does, such as which names match a search while activities are checked off.
/// At most `capacity` results; past it the least recently used go.
final class KeptResults: Sendable {
    struct Key: Hashable, Sendable {
        let sql: String
        let arguments: [DatabaseValue]
    }

    private struct Entry {
        let rows: [Row]
        let region: DatabaseRegion
        /// The generation loaded before the snapshot the rows were read in.
        let generation: UInt64
    }

    private let clock: ChangeClock
    private let schema: ObservableSchema
    private let entries: Mutex<LeastRecentlyUsed<Key, Entry>>
    /// Results read from the database rather than kept (for tests).
    let computedCount = Atomic<Int>(0)

    init(clock: ChangeClock, schema: ObservableSchema, capacity: Int) {
        self.clock = clock
        self.schema = schema
        entries = Mutex(LeastRecentlyUsed(capacity: capacity))
    }

    /// The rows kept for `key` if nothing they read changed since, as seen from a snapshot
    /// begun after loading `generation`; otherwise `fetch`'s, kept.
    func rows(for key: Key, snapshotGeneration generation: UInt64,
              fetch: () throws -> ([Row], DatabaseRegion)) rethrows -> (rows: [Row], region: DatabaseRegion) {
        if let entry = entries.withLock({ $0.use(key) }), clock.lastChange(of: entry.region) <= min(entry.generation, generation) {
            return (entry.rows, entry.region)
        }
        computedCount.add(1, ordering: .relaxed)
        let (rows, region) = try fetch()
        let observable = schema.observableRegion(of: region)
        entries.withLock { $0.insert(Entry(rows: rows, region: observable, generation: generation), cost: 0, for: key) }
        return (rows, observable)
    }
}

/// Records read by rowid, each kept until a commit changes its row (`Connection.fetchKept`): the
/// trips a page shows stay read while other trips' activities are checked off.
final class KeptRecords: Sendable {
    /// The record type, table and selection records are read with.
    struct Kind: Hashable, Sendable {
        let type: ObjectIdentifier
        let table: String
        let selection: String

        /// Not the selection's text, hashed on every read: its length tells kinds apart enough.
        func hash(into hasher: inout Hasher) {
            hasher.combine(type)
            hasher.combine(table)
            hasher.combine(selection.utf8.count)
        }
    }

    private struct Entry {
        let record: any Sendable
        let generation: UInt64
        var lastUse: UInt64
    }

    /// One kind's records by rowid, and what reading them reads (for observers of queries served from here).
    private struct Records {
        var byRowID: [Int64: Entry] = [:]
        var region = DatabaseRegion()
    }

    private struct State {
        var kinds: [Kind: Records] = [:]
        var count = 0
        var uses: UInt64 = 0
    }

    private let clock: ChangeClock
    private let schema: ObservableSchema
    private let capacity: Int
    private let state = Mutex(State())
    /// Records read from the database rather than kept (for tests).
    let readCount = Atomic<Int>(0)

    init(clock: ChangeClock, schema: ObservableSchema, capacity: Int) {
        self.clock = clock
        self.schema = schema
        self.capacity = capacity
    }

    /// Only the history's tables: their commits say which rows they changed.
    func keeps(_ table: String) -> Bool {
        schema.trackedTables.contains(table)
    }

    /// The records of `kind` kept for `rowIDs` whose rows did not change since, as seen from a
    /// snapshot begun after loading `generation`, by rowid; and the region reading them reads
    /// (nil before the kind was first read, when nothing can be found).
    func records(of kind: Kind, rowIDs: [Int64], snapshotGeneration generation: UInt64)
        -> (found: [Int64: any Sendable], region: DatabaseRegion?) {
        let (candidates, region) = state.withLock { state -> ([(Int64, Entry)], DatabaseRegion?) in
            guard var records = state.kinds.removeValue(forKey: kind) else { return ([], nil) }
            state.uses += 1
            var candidates: [(Int64, Entry)] = []
            candidates.reserveCapacity(rowIDs.count)
            for rowID in rowIDs {
                guard var entry = records.byRowID[rowID] else { continue }
                entry.lastUse = state.uses
                records.byRowID[rowID] = entry
                candidates.append((rowID, entry))
            }
            let region = records.region
            state.kinds[kind] = records
            return (candidates, region)
        }
        let changes = clock.lastChanges(ofRows: candidates.map(\.0), in: kind.table)
        var found: [Int64: any Sendable] = [:]
        for ((rowID, entry), lastChange) in zip(candidates, changes) where lastChange <= min(entry.generation, generation) {
            found[rowID] = entry.record
        }
        return (found, region)
    }

    /// Keeps `records` (by rowid) read in a snapshot begun after loading `generation`; returns the
    /// observable form of `region`, what reading them read.
    func keep(_ records: [Int64: any Sendable], of kind: Kind, region: DatabaseRegion,
                                readAt generation: UInt64) -> DatabaseRegion {
        readCount.add(records.count, ordering: .relaxed)
        let observable = schema.observableRegion(of: region)
        state.withLock { state in
            if state.count + records.count > capacity { dropLeastRecentlyUsed(&state) }
            state.uses += 1
            var kept = state.kinds.removeValue(forKey: kind) ?? Records()
            kept.region = observable
            for (rowID, record) in records {
                let previous = kept.byRowID.updateValue(Entry(record: record, generation: generation, lastUse: state.uses), forKey: rowID)
                if previous == nil { state.count += 1 }
            }
            state.kinds[kind] = kept
        }
        return observable
    }

    /// The least recently used quarter goes: one sort per many insertions, not a scan for each.
    private func dropLeastRecentlyUsed(_ state: inout State) {
        let uses = state.kinds.values.flatMap { $0.byRowID.values.map(\.lastUse) }.sorted()
        guard !uses.isEmpty else { return }
        let newestDropped = uses[min(uses.count - 1, capacity / 4)]
        for kind in Array(state.kinds.keys) {
            state.kinds[kind]!.byRowID = state.kinds[kind]!.byRowID.filter { $0.value.lastUse > newestDropped }
        }
        state.count = state.kinds.values.reduce(0) { $0 + $1.byRowID.count }
    }
}

extension Connection {
    /// The records of `table` with these rowids, in their order (a missing row left out), each
    /// kept across commits that do not change its row: the rows a kept `fetchAllKept` list of ids
    /// names, read once while other rows change. `selection` is the columns `Record` reads.
    /// Outside a reader's transaction, or for a table the history does not track, a plain read.
    @inlinable
    public func fetchKept<Record: FetchableRecord & Sendable>(_ type: Record.Type, from table: String, select selection: String,
                                                             rowIDs: [Int64]) throws -> [Record] {
        // Inlinable, and the rest not generic: unspecialized generic code (a map over `Record`s)
        // had cost more than the reads it saved.
        let records = try fetchKeptRecords(ObjectIdentifier(Record.self), from: table, select: selection, rowIDs: rowIDs) {
            try Record(row: $0)
        }
        var result: [Record] = []
        result.reserveCapacity(records.count)
        for record in records { result.append(record as! Record) }
        return result
    }

    /// The records whose rowids `idsSQL` selects (its first column), in its order. Which rows a
    /// list shows (`fetchAllKept`) and what each shows (`fetchKept`) are kept apart: a commit that
    /// changes one row's other columns (a check-off) leaves the list, and every other record, as read.
    @inlinable
    public func fetchKept<Record: FetchableRecord & Sendable>(_ type: Record.Type, from table: String, select selection: String,
                                                             idsFrom idsSQL: String, _ arguments: [any DatabaseValueConvertible] = []) throws -> [Record] {
        let ids = try fetchAllKept(idsSQL, arguments).map { try $0.decode(at: 0, as: Int64.self) }
        return try fetchKept(type, from: table, select: selection, rowIDs: ids)
    }

    @usableFromInline
    func fetchKeptRecords(_ type: ObjectIdentifier, from table: String, select selection: String, rowIDs: [Int64],
                     decode: (Row) throws -> any Sendable) throws -> [any Sendable] {
        let sql = "SELECT \(table).rowid AS kept_row_id, \(selection) FROM \(table) WHERE \(table).rowid IN "
        func read(_ rowIDs: [Int64]) throws -> [Int64: any Sendable] {
            guard !rowIDs.isEmpty else { return [:] }
            var read: [Int64: any Sendable] = [:]
            for row in try fetchAll(sql + "(\(sqlPlaceholders(rowIDs.count)))", rowIDs) {
                read[try row.decode(at: 0, as: Int64.self)] = try decode(row)
            }
            return read
        }
        guard let keptRecords, let generation = snapshotGeneration, keptRecords.keeps(table) else {
            let found = try read(rowIDs)
            return rowIDs.compactMap { found[$0] }
        }
        try beginSnapshot()
        let kind = KeptRecords.Kind(type: type, table: table, selection: selection)
        var (found, region) = keptRecords.records(of: kind, rowIDs: rowIDs, snapshotGeneration: generation)
        let missing = rowIDs.filter { found[$0] == nil }
        let enclosing = authorizer.trackedRegion
        if !missing.isEmpty {
            let (read, readRegion) = try trackingRegion { try read(missing) }
            region = keptRecords.keep(read, of: kind, region: readRegion, readAt: generation)
            found.merge(read) { _, new in new }
        }
        // Kept or not, what an enclosing tracking depends on: these rows for a tracked read
        // (`Database.readTrackingRows`), else the columns (an observer's `trackingRegion`).
        if authorizer.trackedRows != nil {
            authorizer.trackedRegion = enclosing
            authorizer.trackedRows![table, default: []].formUnion(rowIDs)
        } else if let region {
            authorizer.trackedRegion?.formUnion(region)
        }
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
        guard let keptResults, let generation = snapshotGeneration else { return try fetchAll(sql, arguments) }
        try beginSnapshot()
        let key = KeptResults.Key(sql: sql, arguments: arguments.map(\.databaseValue))
        let (rows, region) = try keptResults.rows(for: key, snapshotGeneration: generation) {
            try trackingRegion { try fetchAll(sql, arguments) }
        }
        // Kept or not, what an enclosing `trackingRegion` (an observer's) depends on.
        authorizer.trackedRegion?.formUnion(region)
        return rows
    }
}
