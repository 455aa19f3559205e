import CSQLite

/// A prepared statement, reusable with new arguments. Get one from `Connection.prepare(_:)` to
/// run the same SQL many times (bulk imports) without parsing it again.
public final class Statement {
    public let sql: String
    let handle: OpaquePointer
    private let connection: OpaquePointer
    /// What the statement reads, noted once when it was prepared.
    public let region: DatabaseRegion
    /// Where `Connection.trackingRegion` gathers the regions of the statements run.
    private let authorizer: StatementAuthorizer

    init(sql: String, handle: OpaquePointer, connection: OpaquePointer, region: DatabaseRegion,
         authorizer: StatementAuthorizer) {
        self.sql = sql
        self.handle = handle
        self.connection = connection
        self.region = region
        self.authorizer = authorizer
    }

    deinit { sqlite3_finalize(handle) }

    /// Runs the statement to completion with `arguments` bound to its `?` parameters.
    public func execute(_ arguments: [any DatabaseValueConvertible] = []) throws {
        try run(arguments) { _ in true }
    }

    public func fetchAll(_ arguments: [any DatabaseValueConvertible] = []) throws -> [Row] {
        var rows: [Row] = []
        let columns = self.columns
        try run(arguments) { statement in
            rows.append(Row(columns: columns, values: statement.currentValues()))
            return true
        }
        return rows
    }

    public func fetchOne(_ arguments: [any DatabaseValueConvertible] = []) throws -> Row? {
        var row: Row?
        let columns = self.columns
        try run(arguments) { statement in
            row = Row(columns: columns, values: statement.currentValues())
            return false
        }
        return row
    }

    public var columnNames: [String] { columns.names }

    /// The result's columns, looked up once: every row of every run shares them (a cached
    /// statement's result columns never change, as a schema change prepares it again).
    private lazy var columns = RowColumns(names: (0..<sqlite3_column_count(handle)).map {
        String(cString: sqlite3_column_name(handle, $0))
    })

    /// Binds the arguments, steps while `onRow` returns true, and always resets the statement
    /// so that it holds no lock and no stale bindings once this returns.
    func run(_ arguments: [any DatabaseValueConvertible], onRow: (Statement) throws -> Bool) throws {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        try bind(arguments)
        authorizer.trackedRegion?.formUnion(region)
        while true {
            switch sqlite3_step(handle) {
            case SQLITE_ROW:
                if try !onRow(self) { return }
            case SQLITE_DONE:
                return
            default:
                throw DatabaseError(connection: connection, sql: sql)
            }
        }
    }

    private func bind(_ arguments: [any DatabaseValueConvertible]) throws {
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard arguments.count == expected else {
            throw DatabaseError(extendedResultCode: SQLITE_RANGE,
                                message: "the statement has \(expected) parameter(s) but \(arguments.count) argument(s) were given",
                                sql: sql)
        }
        for (offset, argument) in arguments.enumerated() {
            try bind(argument.databaseValue, at: Int32(offset + 1))
        }
    }

    /// Binds one value at a 1-based parameter index. Text and blobs are copied by SQLite
    /// (SQLITE_TRANSIENT) because Swift's buffers only live for the duration of the call.
    func bind(_ value: DatabaseValue, at index: Int32) throws {
        let code: Int32
        switch value {
        case .null:
            code = sqlite3_bind_null(handle, index)
        case .integer(let integer):
            code = sqlite3_bind_int64(handle, index, integer)
        case .real(let real):
            code = sqlite3_bind_double(handle, index, real)
        case .text(var text):
            code = text.withUTF8 { bytes in
                // A nil pointer would bind NULL instead of the empty string.
                let empty: StaticString = ""
                return sqlite3_bind_text(handle, index,
                                         UnsafeRawPointer(bytes.baseAddress ?? empty.utf8Start).assumingMemoryBound(to: CChar.self),
                                         Int32(bytes.count), csqlite_transient())
            }
        case .blob(let bytes):
            code = bytes.isEmpty
                ? sqlite3_bind_zeroblob(handle, index, 0)
                : bytes.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), csqlite_transient()) }
        }
        guard code == SQLITE_OK else { throw DatabaseError(connection: connection, sql: sql) }
    }

    /// Steps once; true while there is a row.
    func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw DatabaseError(connection: connection, sql: sql)
        }
    }

    func reset() {
        sqlite3_reset(handle)
    }

    func currentValues() -> [DatabaseValue] {
        (0..<sqlite3_column_count(handle)).map(value(at:))
    }

    private func value(at column: Int32) -> DatabaseValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let text = sqlite3_column_text(handle, column) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let bytes = sqlite3_column_blob(handle, column) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default:
            return .null
        }
    }
}

/// `count` placeholders for an IN list: `?, ?, ?`.
public func sqlPlaceholders(_ count: Int) -> String {
    Array(repeating: "?", count: count).joined(separator: ", ")
}

/// Row ids as one JSON array argument, for `IN (SELECT value FROM json_each(?))`: one statement
/// (cached) however many ids, where placeholders would make a new one per count.
public func sqlJSONList(_ ids: [Int64]) -> String {
    "[" + ids.map(String.init).joined(separator: ",") + "]"
}
