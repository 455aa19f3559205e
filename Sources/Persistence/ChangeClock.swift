import Synchronization

/// When each tracked table, column and row last changed, counted in `Database.generation`s: the
/// one rule by which a value read before some commits is still current — nothing in the region it
/// read changed since the generation it was read at (`lastChange(of:)`).
///
/// A commit marks what it changes twice: as changing (`UInt64.max`, so nothing that reads it is
/// trusted) before its COMMIT, and with the generation it moved to once it has. So a reader whose
/// snapshot already holds the commit never takes a value from before it as current.
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

        func lastChange(of region: DatabaseRegion) -> UInt64 {
            var last = everything
            if region.isFullDatabase {
                return ([last] + rows.values + columns.values.flatMap(\.values)).max()!
            }
            for table in region.tables where region.isScanned(table) {
                last = max(last, rows[table] ?? 0)
                let changed = columns[table] ?? [:]
                if let read = region.columns(of: table) {
                    for column in read { last = max(last, changed[column] ?? 0) }
                } else {
                    last = max(last, changed.values.max() ?? 0)
                }
            }
            for (table, read) in region.rowsByTable {
                last = max(last, rowFloor[table] ?? 0)
                let changed = rowIDs[table] ?? [:]
                for rowID in read { last = max(last, changed[rowID] ?? 0) }
            }
            return last
        }
    }

    private let times = Mutex(Times())
    /// Rows remembered per table; past it the table's floor rises to the newest and the list starts
    /// again (values read by those rows are then read again once).
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

    /// The newest generation at which something `region` reads changed.
    func lastChange(of region: DatabaseRegion) -> UInt64 {
        times.withLock { $0.lastChange(of: region) }
    }

    /// `lastChange(of:)` of each region, under one lock (the records of a list).
    func lastChanges(of regions: [DatabaseRegion]) -> [UInt64] {
        times.withLock { times in regions.map(times.lastChange(of:)) }
    }
}
