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
    }

    private let times = Mutex(Times())

    /// Marks what `changes` name (nil: everything) as changed at `generation`.
    func mark(_ changes: TableChanges?, at generation: UInt64) {
        times.withLock { times in
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
        var lastUse: UInt64
    }

    private let clock: ChangeClock
    private let schema: ObservableSchema
    private let capacity: Int
    private let state = Mutex<(entries: [Key: Entry], uses: UInt64)>(([:], 0))
    /// Results read from the database rather than kept (for tests).
    let computedCount = Atomic<Int>(0)

    init(clock: ChangeClock, schema: ObservableSchema, capacity: Int) {
        self.clock = clock
        self.schema = schema
        self.capacity = capacity
    }

    /// The rows kept for `key` if nothing they read changed since, as seen from a snapshot
    /// begun after loading `generation`; otherwise `fetch`'s, kept.
    func rows(for key: Key, snapshotGeneration generation: UInt64,
              fetch: () throws -> ([Row], DatabaseRegion)) rethrows -> (rows: [Row], region: DatabaseRegion) {
        if let entry = state.withLock({ state -> Entry? in
            guard let entry = state.entries[key] else { return nil }
            state.uses += 1
            state.entries[key]?.lastUse = state.uses
            return entry
        }), clock.lastChange(of: entry.region) <= min(entry.generation, generation) {
            return (entry.rows, entry.region)
        }
        computedCount.add(1, ordering: .relaxed)
        let (rows, region) = try fetch()
        let observable = schema.observableRegion(of: region)
        state.withLock { state in
            state.uses += 1
            if state.entries[key] == nil, state.entries.count >= capacity,
               let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
                state.entries[oldest] = nil
            }
            state.entries[key] = Entry(rows: rows, region: observable, generation: generation, lastUse: state.uses)
        }
        return (rows, observable)
    }
}

extension Connection {
    /// The rows of `sql`, kept across commits that change no table or column it reads: a commit
    /// that only updates other columns (a check-off, for a query of names) leaves them current.
    /// Outside a reader's transaction (on the writer) it is `fetchAll`.
    public func fetchAllKept(_ sql: String, _ arguments: [any DatabaseValueConvertible] = []) throws -> [Row] {
        guard let keptResults, let generation = snapshotGeneration else { return try fetchAll(sql, arguments) }
        // The snapshot must have begun before the kept rows are checked against the commits:
        // a commit that lands between the check and the snapshot's first read would be seen by
        // the snapshot but not by the check.
        if sqlite3_txn_state(handle, "main") == SQLITE_TXN_NONE {
            _ = try fetchOne("SELECT 1 FROM sqlite_schema LIMIT 1")
        }
        let key = KeptResults.Key(sql: sql, arguments: arguments.map(\.databaseValue))
        let (rows, region) = try keptResults.rows(for: key, snapshotGeneration: generation) {
            try trackingRegion { try fetchAll(sql, arguments) }
        }
        // Kept or not, what an enclosing `trackingRegion` (an observer's) depends on.
        authorizer.trackedRegion?.formUnion(region)
        return rows
    }
}
