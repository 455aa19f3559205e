import CSQLite
import Glibc

/// Collects the rows a write transaction changes, through `sqlite3_update_hook` on the writer,
/// and the columns its updates changed, through `sqlite3_preupdate_hook` (old and new values
/// compared, so a form that saves every field reports only those that differ).
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
    /// The columns of the tracked tables, set once at open; other tables' columns are not told.
    var columnsOfTable: [String: TableColumnList] = [:]
    /// By table index: the table's columns, found once per transaction (not by name per row).
    private var tableColumns: [TableColumnList?] = []
    /// By table index: which of its stored columns updates changed (by position in
    /// `TableColumnList.stored`), or nil once a row was inserted or deleted.
    private var changedColumns: [Int: [Bool]?] = [:]

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
        sqlite3_preupdate_hook(connection.handle, { context, handle, operation, database, table, oldRowID, newRowID in
            guard let context, let handle, let database, let table, strcmp(database, "main") == 0 else { return }
            Unmanaged<ChangeTracker>.fromOpaque(context).takeUnretainedValue()
                .recordColumns(of: table, operation: operation, rowIDChanged: oldRowID != newRowID, on: handle)
        }, context)
        connection.authorizer.disablesTruncateOptimization = true
    }

    private func recordColumns(of table: UnsafePointer<CChar>, operation: Int32, rowIDChanged: Bool, on handle: OpaquePointer) {
        guard isCollecting else { return }
        let index = index(ofTable: table)
        guard operation == SQLITE_UPDATE, !rowIDChanged else {
            changedColumns[index] = .some(nil)
            return
        }
        guard let columns = tableColumns[index] else { return }
        var changed: [Bool]
        switch changedColumns[index] {
        case .none: changed = Array(repeating: false, count: columns.stored.count)
        case .some(.none): return
        case .some(.some(let known)): changed = known
        }
        for (position, column) in columns.stored.enumerated() where !changed[position] {
            var old: OpaquePointer?
            var new: OpaquePointer?
            // A value SQLite cannot give counts as changed.
            guard sqlite3_preupdate_old(handle, column.index, &old) == SQLITE_OK,
                  sqlite3_preupdate_new(handle, column.index, &new) == SQLITE_OK,
                  let old, let new, Self.sameValue(old, new) else {
                changed[position] = true
                continue
            }
        }
        changedColumns[index] = changed
    }

    private static func sameValue(_ old: OpaquePointer, _ new: OpaquePointer) -> Bool {
        let type = sqlite3_value_type(old)
        guard type == sqlite3_value_type(new) else { return false }
        switch type {
        case SQLITE_NULL: return true
        case SQLITE_INTEGER: return sqlite3_value_int64(old) == sqlite3_value_int64(new)
        case SQLITE_FLOAT: return sqlite3_value_double(old) == sqlite3_value_double(new)
        default:
            let count = sqlite3_value_bytes(old)
            guard count == sqlite3_value_bytes(new) else { return false }
            guard count > 0 else { return true }
            return memcmp(sqlite3_value_blob(old), sqlite3_value_blob(new), Int(count)) == 0
        }
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
            tableColumns.append(columnsOfTable[name])
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

    /// What the transaction changed, by table: the tracked tables of `collectedChanges()`, and for
    /// those only updated, the columns (with the table's generated ones, which follow the others).
    func collectedTableChanges(tracked: Set<String>) -> TableChanges {
        var tables: Set<String> = []
        var updated: [String: Set<String>] = [:]
        for change in changes.compactMap({ $0 }) where !tables.contains(tableNames[change.key.table]) {
            let name = tableNames[change.key.table]
            guard tracked.contains(name) else { continue }
            tables.insert(name)
            if case let changed?? = changedColumns[change.key.table], let columns = tableColumns[change.key.table] {
                let names = zip(columns.stored, changed).filter(\.1).map(\.0.name)
                updated[name] = columns.generated.union(names)
            }
        }
        return TableChanges(tables: tables, updatedColumns: updated)
    }

    func reset() {
        changedColumns.removeAll(keepingCapacity: false)
        changes.removeAll(keepingCapacity: false)
        positions.removeAll(keepingCapacity: false)
        tableNames.removeAll()
        tableColumns.removeAll()
        tableIndexes.removeAll()
        free(lastTableName)
        lastTableName = nil
    }

    deinit { free(lastTableName) }
}

/// A table's columns as the pre-update hook numbers them: the assignable ones it compares, and
/// the generated ones (computed from the others, so taken as changed whenever any is).
struct TableColumnList: Sendable {
    let stored: [(index: Int32, name: String)]
    let generated: Set<String>

    /// `columns` in declaration order with `PRAGMA table_xinfo`'s `hidden` (2: virtual generated,
    /// 3: stored generated).
    init(_ columns: [(name: String, hidden: Int)]) {
        var stored: [(index: Int32, name: String)] = []
        var storage: Int32 = 0
        for (position, column) in columns.enumerated() {
            if column.hidden == 0 {
                stored.append((Self.hookNumbersStorage ? storage : Int32(position), column.name))
            }
            if column.hidden != 2 { storage += 1 }
        }
        self.stored = stored
        generated = Set(columns.filter { [2, 3].contains($0.hidden) }.map(\.name))
    }

    /// Whether this SQLite's pre-update hook numbers columns by where they are stored (virtual
    /// generated columns skipped, as 3.40 does) rather than by declaration: asked of an
    /// in-memory table once, since reading a column by the wrong number would miss its changes.
    static let hookNumbersStorage: Bool = {
        var handle: OpaquePointer?
        guard sqlite3_open(":memory:", &handle) == SQLITE_OK, let handle else { preconditionFailure("cannot open an in-memory database") }
        defer { sqlite3_close(handle) }
        final class Answer { var storage = false }
        let answer = Answer()
        sqlite3_exec(handle, "CREATE TABLE t(a, b GENERATED ALWAYS AS (a) VIRTUAL, c); INSERT INTO t(a, c) VALUES (1, 2)", nil, nil, nil)
        sqlite3_preupdate_hook(handle, { context, handle, _, _, _, _, _ in
            var value: OpaquePointer?
            if sqlite3_preupdate_old(handle, 1, &value) == SQLITE_OK, let value, sqlite3_value_int64(value) == 2 {
                Unmanaged<Answer>.fromOpaque(context!).takeUnretainedValue().storage = true
            }
        }, Unmanaged.passUnretained(answer).toOpaque())
        sqlite3_exec(handle, "UPDATE t SET a = 3", nil, nil, nil)
        return answer.storage
    }()
}
