import CSQLite

/// One SQLite connection. Only used inside `Database.read` / `Database.write` closures, on the
/// thread that runs them; never share it across threads.
public final class Connection {
    let handle: OpaquePointer
    let authorizer = StatementAuthorizer()
    private var statementCache: [String: Statement] = [:]
    /// Descriptors' filtering SQL found free of codable attributes (`refuseCodableAttributes`).
    var descriptorsWithoutCodableAttributes: Set<String> = []
    /// A reader's: where `fetchAllKept` and `fetchKept` keep rows, and the generation loaded
    /// before the current read transaction began (nil outside one).
    var keptRows: KeptRows?
    /// A reader's: what commits report, for `readTracking`.
    var observableSchema: ObservableSchema?
    var snapshotGeneration: UInt64?

    init(path: String, readOnly: Bool) throws {
        // NOMUTEX: SQLite's own locking is redundant, the pools give a connection to one thread at a time.
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
            | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let error = DatabaseError(connection: handle, sql: nil)
            sqlite3_close_v2(handle)
            throw DatabaseError(extendedResultCode: error.extendedResultCode,
                                message: "cannot open \(path): \(error.message)")
        }
        self.handle = handle
        sqlite3_busy_timeout(handle, 5_000)
        authorizer.install(on: handle)
    }

    deinit {
        statementCache.removeAll()
        // A statement still alive could be re-prepared after the authorizer is gone.
        sqlite3_set_authorizer(handle, nil, nil)
        // close_v2 waits for statements still alive (e.g. one returned by prepare) before closing.
        sqlite3_close_v2(handle)
    }

    /// The rowid of the last row inserted on this connection.
    public var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// The number of rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// Runs SQL with `arguments` bound to its `?` parameters. Without arguments the SQL may hold
    /// several statements separated by semicolons (handy for migrations).
    public func execute(_ sql: String, _ arguments: [any DatabaseValueConvertible] = []) throws {
        if arguments.isEmpty, let statement = try cachedStatementIfSingle(sql) {
            try statement.execute()
        } else if arguments.isEmpty {
            try executeScript(sql)
        } else {
            try cachedStatement(sql).execute(arguments)
        }
    }

    public func fetchAll(_ sql: String, _ arguments: [any DatabaseValueConvertible] = []) throws -> [Row] {
        try cachedStatement(sql).fetchAll(arguments)
    }

    public func fetchOne(_ sql: String, _ arguments: [any DatabaseValueConvertible] = []) throws -> Row? {
        try cachedStatement(sql).fetchOne(arguments)
    }

    /// The first column of the first row, or nil when there is no row or the value is NULL.
    /// Throws when the value is not a `T`.
    public func fetchScalar<T: DatabaseValueConvertible>(_ type: T.Type, _ sql: String,
                                                         _ arguments: [any DatabaseValueConvertible] = []) throws -> T? {
        guard let row = try fetchOne(sql, arguments), row.count > 0 else { return nil }
        return try row.decode(at: 0, as: T?.self)
    }

    public func fetchAll<Record: FetchableRecord>(_ type: Record.Type, _ sql: String,
                                                  _ arguments: [any DatabaseValueConvertible] = []) throws -> [Record] {
        try fetchAll(sql, arguments).map(Record.init(row:))
    }

    public func fetchOne<Record: FetchableRecord>(_ type: Record.Type, _ sql: String,
                                                  _ arguments: [any DatabaseValueConvertible] = []) throws -> Record? {
        try fetchOne(sql, arguments).map(Record.init(row:))
    }

    /// Runs `body` and returns, with its result, the union of the regions read by every statement
    /// it ran on this connection (each statement's region was noted once, when it was prepared).
    /// Nested calls add their region to the enclosing one.
    public func trackingRegion<T>(_ body: () throws -> T) rethrows -> (T, DatabaseRegion) {
        let enclosing = authorizer.trackedRegion
        authorizer.trackedRegion = DatabaseRegion()
        defer {
            if let enclosing, let inner = authorizer.trackedRegion {
                authorizer.trackedRegion = enclosing.union(inner)
            } else {
                authorizer.trackedRegion = enclosing
            }
        }
        let result = try body()
        return (result, authorizer.trackedRegion ?? DatabaseRegion())
    }

    /// `body`'s value with what it read (`DatabaseRegion`: records read by id as their rows, the
    /// rest by table and column, as commits report them) and the generation loaded before this
    /// reader's snapshot began: while `Database.isUnchanged(region, since: generation)`, `body`
    /// would read the same. A part of a larger read (a page's fragment) adds to its region.
    /// Inside `Database.read`; on the writer the region is the whole database.
    public func readTracking<T>(_ body: () throws -> T) throws -> TrackedRead<T> {
        guard let observableSchema, let snapshotGeneration else {
            return TrackedRead(value: try body(), region: .fullDatabase, generation: 0)
        }
        try beginSnapshot()
        let (value, region) = try trackingRegion(body)
        return TrackedRead(value: value, region: observableSchema.observableRegion(of: region), generation: snapshotGeneration)
    }

    /// The tables written by the triggers `sql` would fire, found by preparing it without running it.
    func tablesWrittenByTriggers(of sql: String) throws -> Set<String> {
        try prepareFirst(sql).triggerWrites
    }

    /// A new prepared statement owned by the caller, for running one SQL statement many times.
    public func prepare(_ sql: String) throws -> Statement {
        let (statement, tail, _) = try prepareFirst(sql)
        guard tail.allSatisfy(\.isWhitespace) else {
            throw DatabaseError.misuse("prepare takes exactly one SQL statement", sql: sql)
        }
        return statement
    }

    /// The statement for `sql` from this connection's cache, prepared on first use.
    func cachedStatement(_ sql: String) throws -> Statement {
        if let statement = statementCache[sql] { return statement }
        let statement = try prepare(sql)
        cache(statement)
        return statement
    }

    private func cachedStatementIfSingle(_ sql: String) throws -> Statement? {
        if let statement = statementCache[sql] { return statement }
        let (statement, tail, _) = try prepareFirst(sql)
        guard tail.allSatisfy(\.isWhitespace) else { return nil }
        cache(statement)
        return statement
    }

    /// Generated SQL (IN lists of varying length) could grow the cache without end; past the bound
    /// it starts over, which costs only re-preparing the statements in use.
    private static let statementCacheLimit = 256

    private func cache(_ statement: Statement) {
        if statementCache.count >= Connection.statementCacheLimit { statementCache.removeAll() }
        statementCache[statement.sql] = statement
    }

    /// The columns `sql` reads, found by preparing it without running it.
    func columnsRead(by sql: String) throws -> Set<TableColumn> {
        let region = try prepareFirst(sql).0.region
        return Set(region.tables.flatMap { table in (region.columns(of: table) ?? []).map { TableColumn(table: table, column: $0) } })
    }

    /// Prepares the first statement of `sql` and returns it with the SQL that follows it and the
    /// tables its triggers write.
    private func prepareFirst(_ sql: String) throws -> (Statement, tail: Substring, triggerWrites: Set<String>) {
        var statementHandle: OpaquePointer?
        var tailOffset = 0
        let (code, region, triggerWrites) = authorizer.recording {
            sql.withCString { start in
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v3(handle, start, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statementHandle, &tail)
                if let tail { tailOffset = start.distance(to: tail) }
                return code
            }
        }
        guard code == SQLITE_OK else { throw DatabaseError(connection: handle, sql: sql) }
        guard let statementHandle else {
            throw DatabaseError.misuse("the SQL holds no statement", sql: sql)
        }
        let tail = sql.utf8.count > tailOffset
            ? Substring(sql.utf8.dropFirst(tailOffset)) : ""
        return (Statement(sql: sql, handle: statementHandle, connection: handle, region: region, authorizer: authorizer),
                tail, triggerWrites)
    }

    /// Runs several statements without arguments through sqlite3_exec.
    private func executeScript(_ sql: String) throws {
        let (code, region, _) = authorizer.recording { sqlite3_exec(handle, sql, nil, nil, nil) }
        authorizer.trackedRegion?.formUnion(region)
        guard code == SQLITE_OK else { throw DatabaseError(connection: handle, sql: sql) }
    }

    /// True outside any transaction (SQLite's autocommit mode).
    var isInAutocommitMode: Bool { sqlite3_get_autocommit(handle) != 0 }

    /// Runs `body` in a transaction: COMMIT when it returns, ROLLBACK when it (or COMMIT) throws.
    func inTransaction<T>(_ begin: String, _ body: () throws -> T) throws -> T {
        try execute(begin)
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            // SQLite may already have rolled back (e.g. after SQLITE_FULL); a second ROLLBACK would fail.
            if !isInAutocommitMode { try? execute("ROLLBACK") }
            throw error
        }
    }
}
