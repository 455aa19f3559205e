import CSQLite

/// An error reported by SQLite (or by this library when it is misused), with the SQL involved.
public struct DatabaseError: Error, CustomStringConvertible, Sendable {
    /// The primary result code, e.g. `SQLITE_FULL`.
    public let resultCode: Int32
    /// The extended result code, e.g. `SQLITE_CONSTRAINT_FOREIGNKEY`.
    public let extendedResultCode: Int32
    public let message: String
    public let sql: String?

    public init(extendedResultCode: Int32, message: String? = nil, sql: String? = nil) {
        self.extendedResultCode = extendedResultCode
        self.resultCode = extendedResultCode & 0xFF
        self.message = message ?? String(cString: sqlite3_errstr(extendedResultCode))
        self.sql = sql
    }

    /// The error SQLite last reported on `connection`.
    init(connection: OpaquePointer?, sql: String?) {
        let code = connection.map(sqlite3_extended_errcode) ?? SQLITE_ERROR
        let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        self.init(extendedResultCode: code, message: message, sql: sql)
    }

    public var isDiskFull: Bool { resultCode == SQLITE_FULL }
    public var isConstraintViolation: Bool { resultCode == SQLITE_CONSTRAINT }
    public var isBusy: Bool { resultCode == SQLITE_BUSY || resultCode == SQLITE_LOCKED }
    /// The file is damaged or is no database at all.
    public var isCorrupt: Bool { resultCode == SQLITE_CORRUPT || resultCode == SQLITE_NOTADB }

    public var description: String {
        // sqlite3_errmsg is usually the clearest text ("database or disk is full",
        // "FOREIGN KEY constraint failed"); the generic text of the code is added when it differs.
        let generic = String(cString: sqlite3_errstr(extendedResultCode))
        var text = message
        if generic != message { text += " (\(generic))" }
        text += " [SQLite code \(extendedResultCode)]"
        if let sql { text += " while executing: \(sql)" }
        return text
    }

    static func misuse(_ message: String, sql: String? = nil) -> DatabaseError {
        DatabaseError(extendedResultCode: SQLITE_MISUSE, message: message, sql: sql)
    }
}
