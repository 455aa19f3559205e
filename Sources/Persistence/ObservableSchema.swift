/// Maps what a query reads onto what commits report. Commits (and the history) name only the
/// tracked tables: ordinary rowid tables. A read of anything else is translated, from the schema:
/// - a view or a common table expression: nothing, since the authorizer also reports the tables
///   under it;
/// - a virtual table's shadow tables and SQLite's schema table: nothing. An FTS5 table reads them
///   while it connects, inside the first statement that uses it on a connection, and that
///   statement reports the virtual table itself (the schema changes only in migrations, before
///   anything is observed);
/// - a table kept by triggers that commits cannot report (a WITHOUT ROWID table, an FTS5
///   virtual table): the tracked tables whose triggers write it, found by preparing (never
///   running) an INSERT, an UPDATE of each column and a DELETE on each tracked table, and of
///   each the columns whose update writes it (a trip's name feeds the name index, its counters
///   do not);
/// - anything else (a temporary table, SQLite's own): the full database.
///
/// Loaded once at open, after the migrations, from the writer.
struct ObservableSchema: Sendable {
    let trackedTables: Set<String>
    /// Views and shadow tables: what they hold is reported through other tables.
    private let reportedElsewhere: Set<String>
    /// Every table, view and virtual table: a name read that is none of them is a common table
    /// expression, whose own tables are reported too.
    private let schemaTables: Set<String>
    /// Untracked table → the tracked tables whose triggers write it → the columns whose update
    /// does (inserts and deletes always may).
    private let triggerSources: [String: [String: Set<String>]]
    /// The tracked tables' columns, for the pre-update hook.
    let columnsOfTable: [String: TableColumnList]

    init(_ connection: Connection) throws {
        trackedTables = try HistoryStore.trackedTables(connection)
        reportedElsewhere = Set(try connection.fetchAll(
            "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type IN ('view', 'shadow')"
        ).map { $0["name"] as String })
        schemaTables = Set(try connection.fetchAll("SELECT name FROM pragma_table_list WHERE schema = 'main'").map { $0["name"] as String })
        var sources: [String: [String: Set<String>]] = [:]
        var columnsOfTable: [String: TableColumnList] = [:]
        for table in trackedTables {
            // Generated columns (hidden 2 and 3) cannot be assigned.
            let columns = try connection.fetchAll("SELECT cid, name, hidden FROM pragma_table_xinfo(?) ORDER BY cid", [table])
            columnsOfTable[table] = TableColumnList(columns.map { (name: $0["name"], hidden: $0["hidden"]) })
            let stored = columnsOfTable[table]!.stored
            let name = quotedIdentifier(table)
            for sql in ["INSERT INTO \(name) DEFAULT VALUES", "DELETE FROM \(name)"] {
                for written in try connection.tablesWrittenByTriggers(of: sql) where !trackedTables.contains(written) {
                    sources[written, default: [:]][table, default: []].formUnion([])  // its rows, no column
                }
            }
            for column in stored.map(\.name) {
                let quoted = quotedIdentifier(column)
                for written in try connection.tablesWrittenByTriggers(of: "UPDATE \(name) SET \(quoted) = \(quoted)")
                where !trackedTables.contains(written) {
                    sources[written, default: [:]][table, default: []].insert(column)
                }
            }
        }
        triggerSources = sources
        self.columnsOfTable = columnsOfTable
    }

    /// The tracked tables (and their columns) whose changes may change what `region` reads, or
    /// the full database.
    func observableRegion(of region: DatabaseRegion) -> DatabaseRegion {
        guard !region.isFullDatabase else { return region }
        var observable = DatabaseRegion()
        for table in region.tables where schemaTables.contains(table) && !reportedElsewhere.contains(table) && !table.hasPrefix("sqlite_") {
            if trackedTables.contains(table) {
                observable.formUnion(region.restricted(to: table))
            } else if let sources = triggerSources[table] {
                for (source, columns) in sources { observable.formUnion(DatabaseRegion(table: source, columns: columns)) }
            } else {
                return .fullDatabase
            }
        }
        return observable
    }
}

/// An identifier as SQL text, in double quotes.
func quotedIdentifier(_ identifier: String) -> String {
    "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}
