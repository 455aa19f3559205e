import CSQLite
import Glibc

/// Collects the rows a write transaction changes, through `sqlite3_update_hook` on the writer.
///
/// Each row keeps only its net change within the transaction: insert then update is an insert,
/// insert then delete is nothing, update then delete is a delete, delete then insert is an update.
///
/// What SQLite reports (and so what history holds): rows of rowid tables in the main schema,
/// including rows deleted by foreign-key cascades. It does not report WITHOUT ROWID tables or rows
/// removed by `INSERT OR REPLACE` conflicts. `DELETE FROM t` without WHERE would skip the hook
/// (the truncate optimization); the writer's `StatementAuthorizer` prevents that.
///
/// `@unchecked Sendable`: only touched by the thread holding the writer connection.
final class ChangeTracker: @unchecked Sendable {
    struct RowKey: Hashable {
        let table: Int
        let rowID: Int64
    }

    /// When false (during migrations and while writing the history itself) nothing is collected.
    var isCollecting = false
    private(set) var tableNames: [String] = []
    private var tableIndexes: [String: Int] = [:]
    /// Our own copy of the last table name: SQLite's pointer may dangle after a schema change.
    private var lastTableName: UnsafeMutablePointer<CChar>?
    private var lastTableIndex = 0
    private var changes: [(key: RowKey, kind: ChangeKind)?] = []
    private var positions: [RowKey: Int] = [:]

    var hasChanges: Bool { !positions.isEmpty }

    func install(on connection: Connection) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_update_hook(connection.handle, { context, operation, database, table, rowID in
            guard let context, let database, let table, strcmp(database, "main") == 0 else { return }
            let kind: ChangeKind = switch operation {
            case SQLITE_INSERT: .insert
            case SQLITE_DELETE: .delete
            default: .update
            }
            Unmanaged<ChangeTracker>.fromOpaque(context).takeUnretainedValue().record(table: table, rowID: rowID, kind: kind)
        }, context)
        connection.authorizer.disablesTruncateOptimization = true
    }

    private func record(table: UnsafePointer<CChar>, rowID: Int64, kind: ChangeKind) {
        guard isCollecting else { return }
        let key = RowKey(table: index(ofTable: table), rowID: rowID)
        guard let position = positions[key], let previous = changes[position]?.kind else {
            positions[key] = changes.count
            changes.append((key, kind))
            return
        }
        switch (previous, kind) {
        case (.insert, .delete):
            changes[position] = nil
            positions[key] = nil
        case (.insert, _):
            break
        case (.delete, .insert):
            changes[position] = (key, .update)
        default:
            changes[position] = (key, kind)
        }
    }

    /// Table names arrive as C strings; most transactions touch few tables, often one in a row,
    /// so comparing with the previous name avoids building a Swift string per changed row.
    private func index(ofTable table: UnsafePointer<CChar>) -> Int {
        if let lastTableName, strcmp(lastTableName, table) == 0 { return lastTableIndex }
        let name = String(cString: table)
        let index = tableIndexes[name] ?? {
            tableNames.append(name)
            tableIndexes[name] = tableNames.count - 1
            return tableNames.count - 1
        }()
        free(lastTableName)
        lastTableName = strdup(table)
        lastTableIndex = index
        return index
    }

    /// The collected changes in the order rows were first touched.
    func collectedChanges() -> [(table: String, rowID: Int64, kind: ChangeKind)] {
        changes.compactMap { change in change.map { (tableNames[$0.key.table], $0.key.rowID, $0.kind) } }
    }

    func reset() {
        changes.removeAll(keepingCapacity: false)
        positions.removeAll(keepingCapacity: false)
        tableNames.removeAll()
        tableIndexes.removeAll()
        free(lastTableName)
        lastTableName = nil
    }

    deinit { free(lastTableName) }
}
