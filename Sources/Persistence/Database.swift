import CSQLite
import Foundation
import Synchronization

/// One SQLite file: a single writer connection and a pool of read-only readers, in WAL mode so
/// that reads run beside a write. Every write records its changes in the history tables.
public final class Database: Sendable {
    public let path: String
    private let writer: ConnectionPool
    private let readers: ConnectionPool
    private let changeTracker = ChangeTracker()
    let notifier = CommitNotifier()
    private let externalChangeWatcher = Mutex<ExternalChangeWatcher?>(nil)
    /// The thread inside `write`, to stop a nested write with a message instead of a deadlock.
    private let writingThread = Atomic<UInt>(0)
    private let generationCounter = Atomic<UInt64>(0)
    private let changeClock = ChangeClock()
    /// `Connection.fetchAllKept`'s results and `fetchKept`'s records, shared by the readers.
    let keptRows: KeptRows
    /// Read transactions begun so far: tests count them (a screen is read in one).
    let readTransactionCount = Atomic<Int>(0)
    private let observableSchema: ObservableSchema
    private let fileIdentity: DatabaseFileIdentity?
    /// Once the file is found deleted or replaced, it stays so for this `Database`: its
    /// connections still hold the old file.
    private let foundFileProblem = Mutex<DatabaseFileProblem?>(nil)

    /// Moves after every write transaction of this process has ended (before `write` returns)
    /// and whenever the external-change watcher sees another process' commit. A value computed
    /// from reads that began after loading `generation` is current for as long as it stays equal
    /// (`CommitScopedCache` relies on this).
    public var generation: UInt64 {
        generationCounter.load(ordering: .sequentiallyConsistent)
    }

    /// The newest generation this process moved to, with the history token then newest (nil
    /// after another process' commit or a restore, whose token is not known without a read).
    private let newestCommit = Mutex<(generation: UInt64, token: Int64?)>((0, nil))

    /// Opens (creating if needed) the file at `path` and applies the pending `migrations`.
    /// Throws `MigrationError.schemaTooNew`, leaving the file untouched, when it comes from a newer build.
    public init(path: String, migrations: [Migration], readerCount: Int = 4) throws {
        precondition(readerCount > 0, "a database needs at least one reader")
        self.path = path
        let writerConnection = try Connection(path: path, readOnly: false)
        try Migrator.checkCompatibility(writerConnection, path: path, migrations: migrations)
        try Database.configureWriter(writerConnection)
        try writerConnection.inTransaction("BEGIN IMMEDIATE") { try writerConnection.execute(HistoryStore.schema) }
        try Migrator.migrate(writerConnection, migrations: migrations)
        changeTracker.install(on: writerConnection)
        let schema = try ObservableSchema(writerConnection)
        observableSchema = schema
        changeTracker.columnsOfTable = observableSchema.columnsOfTable
        let keptRows = KeptRows(clock: changeClock, schema: observableSchema)
        self.keptRows = keptRows
        fileIdentity = DatabaseFileIdentity(path: path)
        writer = ConnectionPool([writerConnection])
        readers = ConnectionPool(try (0..<readerCount).map { _ in
            let reader = try Connection(path: path, readOnly: true)
            try reader.execute("PRAGMA temp_store = MEMORY")
            // 2 MB: what one uncached search page reads (200 candidates of each list, their
            // trigram lists) fits, where 512 KB sent a third of `/search?q=kyoto`'s CPU to
            // copying pages back from the OS cache (Benchmarks/README.md). Quiet servers give
            // the pages back (`releaseMemory`), so this grows the peak under load, not idle.
            try reader.execute("PRAGMA cache_size = -2048")
            reader.keptRows = keptRows
            reader.observableSchema = schema
            return reader
        })
    }

    deinit { close() }

    private static func configureWriter(_ connection: Connection) throws {
        let mode = try connection.fetchScalar(String.self, "PRAGMA journal_mode = WAL")
        guard mode?.lowercased() == "wal" else {
            throw DatabaseError(extendedResultCode: SQLITE_ERROR, message: "cannot switch the database to WAL mode (got \(mode ?? "nothing"))")
        }
        // FULL: a committed transaction survives a power cut, not only a crash of the process.
        try connection.execute("PRAGMA synchronous = FULL")
        try connection.execute("PRAGMA foreign_keys = ON")
        try connection.execute("PRAGMA temp_store = MEMORY")
    }

    /// Runs `body` on a reader in one deferred transaction, so all its queries see the same
    /// committed state. Waits while every reader is busy.
    public func read<T>(_ body: (Connection) throws -> T) throws -> T {
        try read { connection, _ in try body(connection) }
    }

    /// `read`, `body` given the generation loaded before its snapshot began.
    private func read<T>(_ body: (Connection, UInt64) throws -> T) throws -> T {
        readTransactionCount.add(1, ordering: .relaxed)
        return try readers.withConnection { connection in
            let generation = generation
            connection.snapshotGeneration = generation
            defer { connection.snapshotGeneration = nil }
            return try connection.inTransaction("BEGIN DEFERRED") { try body(connection, generation) }
        }
    }

    /// `body`'s value read in one snapshot, with what it read and when (`Connection.readTracking`).
    public func readTracking<T>(_ body: (Connection) throws -> T) throws -> TrackedRead<T> {
        try read { connection in try connection.readTracking { try body(connection) } }
    }

    /// The newest history token when no commit since `generation` changed what `region` reads;
    /// nil when one did, or may have (another process' commit, one under way, or any commit for
    /// a region of the whole database: it reads an untracked table, whose writes are not marked).
    public func tokenIfUnchanged(_ region: DatabaseRegion, since generation: UInt64) -> Int64? {
        // The token first: a commit after it that touches the region shows in the clock below.
        guard let token = newestCommit.withLock({ $0.token }), isUnchanged(region, since: generation) else { return nil }
        return token
    }

    /// Whether no commit since `generation` changed what `region` reads (nor may have: see
    /// `tokenIfUnchanged`): the one rule by which a value read at `generation` is still current.
    public func isUnchanged(_ region: DatabaseRegion, since generation: UInt64) -> Bool {
        !region.isFullDatabase && changeClock.lastChange(of: region) <= generation
    }

    /// Runs `body` in one IMMEDIATE transaction on the single writer (writes are serialized).
    /// Commits when it returns, rolls back everything when it throws or when COMMIT fails.
    /// The changed rows are recorded in the history under `author` in the same transaction;
    /// observers hear of the commit afterwards, on another thread.
    /// Writes do not nest; a `read` inside `body` uses another connection and does not see the
    /// uncommitted changes, so query through `body`'s connection instead.
    public func write<T>(author: String, _ body: (Connection) throws -> T) throws -> T {
        precondition(writingThread.load(ordering: .relaxed) != UInt(pthread_self()),
                     "write(author:) was called inside another write on the same thread: writes do not nest")
        if let problem = fileProblem { throw problem }
        return try writer.withConnection { connection in
            writingThread.store(UInt(pthread_self()), ordering: .relaxed)
            changeTracker.reset()
            changeTracker.isCollecting = true
            defer {
                changeTracker.isCollecting = false
                changeTracker.reset()
                writingThread.store(0, ordering: .relaxed)
            }
            var recorded: (token: Int64, changes: TableChanges, rows: [String: [Int64]])?
            let companion = WriteCompanion.current.flatMap { $0.database == ObjectIdentifier(self) ? $0.companion : nil }
            let result: T
            do {
                result = try connection.inTransaction("BEGIN IMMEDIATE") {
                    let result = try body(connection)
                    try companion?.run(on: connection)
                    if changeTracker.hasChanges {
                        let changes = changeTracker.collectedTableChanges(tracked: observableSchema.trackedTables)
                        changeTracker.isCollecting = false
                        let rowChanges = changeTracker.collectedChanges()
                        if let token = try HistoryStore.record(rowChanges, tracked: observableSchema.trackedTables,
                                                               author: author, on: connection) {
                            let rows = Dictionary(grouping: rowChanges.filter { changes.tables.contains($0.table) }, by: \.table)
                                .mapValues { $0.map(\.rowID) }
                            recorded = (token, changes, rows)
                            changeClock.mark(changes, rows: rows, at: .max)
                        }
                    }
                    return result
                }
            } catch {
                companion?.ended(committed: false)
                advanceGeneration(marking: recorded?.changes ?? TableChanges(tables: []), rows: recorded?.rows ?? [:])
                throw error
            }
            companion?.ended(committed: true)
            // After COMMIT (or ROLLBACK), never before: a reader that sees the new generation
            // must also see the committed rows. And before observers hear of the commit: what
            // they read through a cache must not be from before it (CommitOrderTests).
            advanceGeneration(marking: recorded?.changes ?? TableChanges(tables: []), rows: recorded?.rows ?? [:],
                              token: recorded?.token)
            if let recorded {
                notifier.post(DatabaseCommit(token: recorded.token, changes: recorded.changes, changedRows: recorded.rows, isExternal: false))
            }
            return result
        }
    }

    /// Moves the generation, and marks what `changes` name (nil: everything, as after another
    /// process' commit) as changed at the new one for `fetchAllKept` (as changing while it moves).
    /// `token`: the history token this process' commit recorded (nil: the newest stays as it
    /// was after a write that changed nothing, and is unknown after another process' commit).
    private func advanceGeneration(marking changes: TableChanges?, rows: [String: [Int64]] = [:], token: Int64? = nil) {
        let generation: UInt64
        if changes?.tables.isEmpty == true {
            generation = generationCounter.add(1, ordering: .sequentiallyConsistent).newValue
        } else {
            changeClock.mark(changes, rows: rows, at: .max)
            generation = generationCounter.add(1, ordering: .sequentiallyConsistent).newValue
            changeClock.mark(changes, rows: rows, at: generation)
        }
        newestCommit.withLock { newest in
            guard generation > newest.generation else { return }
            newest = (generation, changes == nil ? nil : token ?? newest.token)
        }
    }

    /// Whether the path still names the file opened (checked now, before each write and by the
    /// external-change watcher); writes throw the problem once there is one.
    public var fileProblem: DatabaseFileProblem? {
        foundFileProblem.withLock { found in
            if found == nil { found = fileIdentity?.problem() }
            return found
        }
    }

    /// Calls `onCommit` after every commit (this process' writes and, once watching, external
    /// ones), on a serial notification queue, in commit order.
    public func observeCommits(_ onCommit: @escaping @Sendable (DatabaseCommit) -> Void) -> ObservationCancellable {
        notifier.subscribers.add(onCommit)
    }

    public func latestHistoryToken() throws -> Int64 {
        try read { try $0.latestHistoryToken() }
    }

    /// The tables whose changes the history records: the entities of `fetchHistory`.
    public var historyEntities: Set<String> { observableSchema.trackedTables }

    /// Whether a transaction committed after `token` changed something `region` reads. A bounded
    /// query: it stops at the first matching transaction and loads none of its changes.
    public func hasChanges(in region: DatabaseRegion, after token: Int64) throws -> Bool {
        let observable = observableSchema.observableRegion(of: region)
        return try read { connection in
            try HistoryStore.hasChanges(to: observable.isFullDatabase ? nil : observable.tables, after: token, on: connection)
        }
    }

    /// Committed history after `token`, oldest first. A transaction matches `entities` when any of
    /// its changes does, and then carries only the matching changes.
    public func fetchHistory(after token: Int64, authors: AuthorFilter = .any, entities: Set<String>? = nil,
                             limit: Int = 1000) throws -> [HistoryTransaction] {
        try read { connection in
            try HistoryStore.fetch(after: token, authors: authors, entities: entities, limit: limit, on: connection)
        }
    }

    /// Whether a reader at `cursor` can go on reading this history from it (`HistoryStore.holds`):
    /// false for a token beyond the newest, or one a restore from an older backup took back.
    public func historyHolds(_ cursor: HistoryCursor) throws -> Bool {
        try read { connection in try HistoryStore.holds(cursor.token, on: connection) }
    }

    /// One bounded page of the history after `cursor` (`HistoryStore.page`): at most `limit`
    /// matching changes, a huge transaction coming in pieces; read in one snapshot.
    public func historyPage(after cursor: HistoryCursor, authors: AuthorFilter = .any, entities: Set<String>? = nil,
                            limit: Int) throws -> HistoryPage {
        try read { connection in
            try HistoryStore.page(after: cursor, authors: authors, entities: entities, limit: limit, on: connection)
        }
    }

    /// Writes a consistent copy of the live database to `destination` with SQLite's online backup,
    /// from a reader's snapshot (writes go on meanwhile). The copy appears atomically by rename.
    public func backup(to destination: String) throws {
        let temporary = destination + ".partial"
        try? FileManager.default.removeItem(atPath: temporary)
        do {
            try readers.withConnection { source in
                let target = try Connection(path: temporary, readOnly: false)
                try Self.copyContent(of: source, into: target)
                // A single self-contained file: no -wal beside the copy.
                _ = try target.fetchScalar(String.self, "PRAGMA journal_mode = DELETE")
            }
            if rename(temporary, destination) != 0 {
                throw DatabaseError(extendedResultCode: SQLITE_IOERR, message: "cannot rename the backup to \(destination): \(String(cString: strerror(errno)))")
            }
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
    }

    /// Replaces the whole content with the database file at `source` (a `backup` copy) through
    /// SQLite's online backup, as one write on the writer connection: every connection to the
    /// file, in this process or in a running server, sees the restored content at its next read
    /// (a server's external-change watcher hears of it). History tokens then continue above the
    /// ones handed out before, so a history reader that has seen them misses no later commit, and
    /// the tokens taken back (after the backup's newest) become a gap that `historyHolds` refuses.
    public func restore(from source: String) throws {
        try writer.withConnection { target in
            let latest = try HistoryStore.latestToken(target)
            let gaps = try target.fetchAll("SELECT after, up_to FROM history_gap")
            let from = try Connection(path: source, readOnly: true)
            try Self.copyContent(of: from, into: target)
            try target.execute(HistoryStore.schema)
            let restoredLatest = try HistoryStore.latestToken(target)
            for gap in gaps.map({ ($0[0] as Int64, $0[1] as Int64) }) + [(restoredLatest, latest)] where gap.0 < gap.1 {
                try target.execute("INSERT INTO history_gap(after, up_to) VALUES (?, ?)", [gap.0, gap.1])
            }
            try target.execute("UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'history_transaction'", [latest])
            try target.execute("""
                INSERT INTO sqlite_sequence(name, seq) SELECT 'history_transaction', ?
                WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'history_transaction')
                """, [latest])
        }
        advanceGeneration(marking: nil)
        notifier.post(DatabaseCommit(token: try latestHistoryToken(), changes: TableChanges(tables: []), isExternal: true))
    }

    /// SQLite's online backup in one step: `target` ends up with exactly `source`'s pages.
    private static func copyContent(of source: Connection, into target: Connection) throws {
        guard let backup = sqlite3_backup_init(target.handle, "main", source.handle, "main") else {
            throw DatabaseError(connection: target.handle, sql: nil)
        }
        let stepCode = sqlite3_backup_step(backup, -1)
        let finishCode = sqlite3_backup_finish(backup)
        guard stepCode == SQLITE_DONE, finishCode == SQLITE_OK else {
            throw DatabaseError(connection: target.handle, sql: nil)
        }
    }

    /// Notices commits by other processes by polling `PRAGMA data_version` every `interval` and
    /// tells observers as if every table changed. Stops at `close()`.
    public func startWatchingExternalChanges(interval: Duration = .milliseconds(250)) {
        let watcher = ExternalChangeWatcher(interval: interval) { [weak self] in
            _ = self?.fileProblem
            return try self?.writer.withConnection { connection in
                (try connection.fetchScalar(Int64.self, "PRAGMA data_version") ?? 0, try HistoryStore.latestToken(connection))
            }
        } onChange: { [weak self, notifier] token in
            self?.advanceGeneration(marking: nil)
            notifier.post(DatabaseCommit(token: token, changes: TableChanges(tables: []), isExternal: true))
        }
        externalChangeWatcher.withLock { running in
            running?.stop()
            running = watcher
        }
    }

    /// How long a write waits for another process' write (an import) before failing with
    /// `isBusy`; 5 s unless set. A server answering a person sets less, so they hear at once.
    public func setWriteBusyTimeout(_ timeout: Duration) throws {
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        try writer.withConnection { connection in _ = sqlite3_busy_timeout(connection.handle, milliseconds) }
    }

    /// Frees the page caches and other memory SQLite holds for the connections not in use right
    /// now, as GRDB's `releaseMemory()` does: for a server that has gone idle after a burst.
    /// Later reads fill the caches again from the operating system's file cache.
    public func releaseMemory() {
        for pool in [readers, writer] {
            pool.forEachIdle { connection in _ = sqlite3_db_release_memory(connection.handle) }
        }
    }

    /// Stops watching, waits for the running read and write to finish and closes every connection.
    /// Later calls throw. Calling it twice is harmless.
    public func close() {
        externalChangeWatcher.withLock { running in
            running?.stop()
            running = nil
        }
        readers.close()
        writer.close()
    }
}
