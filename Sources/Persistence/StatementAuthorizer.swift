import CSQLite
import Glibc

/// The one authorizer SQLite allows per connection, doing two jobs:
/// - while a statement is prepared, it notes the tables and columns the statement reads
///   (SQLITE_READ; the tables under a view are reported along with the view) and the tables its
///   triggers write;
/// - on the writer, it answers SQLITE_IGNORE to the DELETE authorization of ordinary tables, which
///   SQLite documents as "the DELETE proceeds but the truncate optimization is disabled", so every
///   deleted row reaches the update hook (`ChangeTracker`). SQLite's own tables stay authorized
///   (DROP TABLE edits them).
///
/// It also gathers the regions of the statements run inside `Connection.trackingRegion`.
/// Only used on the thread holding its connection.
final class StatementAuthorizer {
    var disablesTruncateOptimization = false
    private var isRecording = false
    private var recordedReads = DatabaseRegion()
    private var recordedTriggerWrites: Set<String> = []
    /// The union of the regions of the statements run since `trackingRegion` began; nil when not tracking.
    var trackedRegion: DatabaseRegion?

    func install(on handle: OpaquePointer) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_set_authorizer(handle, { context, action, table, column, database, trigger in
            Unmanaged<StatementAuthorizer>.fromOpaque(context!).takeUnretainedValue()
                .authorize(action, table: table, column: column, database: database, trigger: trigger)
        }, context)
    }

    /// Runs `prepare` (one or more sqlite3_prepare calls) and returns what the prepared SQL reads
    /// and which tables its triggers write. Only preparing is watched: virtual tables such as
    /// FTS5 prepare their own statements on first use, and those are not the caller's reads.
    func recording<T>(_ prepare: () throws -> T) rethrows -> (T, reads: DatabaseRegion, triggerWrites: Set<String>) {
        recordedReads = DatabaseRegion()
        recordedTriggerWrites = []
        isRecording = true
        defer { isRecording = false }
        let result = try prepare()
        return (result, recordedReads, recordedTriggerWrites)
    }

    private func authorize(_ action: Int32, table: UnsafePointer<CChar>?, column: UnsafePointer<CChar>?, database: UnsafePointer<CChar>?,
                           trigger: UnsafePointer<CChar>?) -> Int32 {
        if isRecording, let table {
            switch action {
            case SQLITE_READ:
                // Temporary tables never reach a commit's report: only "any commit" is safe.
                if let database, strcmp(database, "main") != 0 {
                    recordedReads.formUnion(.fullDatabase)
                } else {
                    // An empty column name: the table is read for its rows alone (`count(*)`).
                    let column = column.map { String(cString: $0) } ?? ""
                    recordedReads.formUnion(DatabaseRegion(table: String(cString: table), columns: column.isEmpty ? [] : [column]))
                }
            case SQLITE_INSERT, SQLITE_UPDATE, SQLITE_DELETE:
                if trigger != nil { recordedTriggerWrites.insert(String(cString: table)) }
            default:
                break
            }
        }
        if action == SQLITE_DELETE, disablesTruncateOptimization, let table, strncmp(table, "sqlite_", 7) != 0 {
            return SQLITE_IGNORE
        }
        return SQLITE_OK
    }
}
