/// Maps what a query reads onto what commits report. Commits (and the history) name only the
/// tracked tables: ordinary rowid tables. A read of anything else is translated, from the schema:
/// - a view: nothing, since the authorizer also reports the tables under it;
/// - a virtual table's shadow tables and SQLite's schema table: nothing. An FTS5 table reads them
///   while it connects, inside the first statement that uses it on a connection, and that
///   statement reports the virtual table itself (the schema changes only in migrations, before
///   anything is observed);
/// - a table kept by triggers that commits cannot report (a WITHOUT ROWID table, an FTS5
///   virtual table): the tracked tables whose triggers write it, found by preparing (never
///   running) an INSERT, an UPDATE of every column and a DELETE on each tracked table;
/// - anything else (a temporary table, SQLite's own): the full database.
///
/// Loaded once at open, after the migrations, from the writer.
struct ObservableSchema: Sendable {
    let trackedTables: Set<String>
    /// Views and shadow tables: what they hold is reported through other tables.
    private let reportedElsewhere: Set<String>
    /// Untracked table → the tracked tables whose triggers write it.
    private let triggerSources: [String: Set<String>]

    init(_ connection: Connection) throws {
        trackedTables = try HistoryStore.trackedTables(connection)
        reportedElsewhere = Set(try connection.fetchAll(
            "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type IN ('view', 'shadow')"
        ).map { $0["name"] as String })
        var sources: [String: Set<String>] = [:]
        for table in trackedTables {
            for written in try Self.tablesWrittenByTriggers(on: table, connection) where !trackedTables.contains(written) {
                sources[written, default: []].insert(table)
            }
        }
        triggerSources = sources
    }

    private static func tablesWrittenByTriggers(on table: String, _ connection: Connection) throws -> Set<String> {
        let name = quotedIdentifier(table)
        // Generated columns (hidden 2 and 3) cannot be assigned.
        let columns = try connection.fetchAll("SELECT name FROM pragma_table_xinfo(?) WHERE hidden = 0", [table])
            .map { quotedIdentifier($0["name"]) }
        let update = "UPDATE \(name) SET " + columns.map { "\($0) = \($0)" }.joined(separator: ", ")
        return try ["INSERT INTO \(name) DEFAULT VALUES", update, "DELETE FROM \(name)"].reduce(into: []) { written, sql in
            written.formUnion(try connection.tablesWrittenByTriggers(of: sql))
        }
    }

    /// The tracked tables whose changes may change what `region` reads (or the full database).
    func observableRegion(of region: DatabaseRegion) -> DatabaseRegion {
        guard !region.isFullDatabase else { return region }
        var observable = DatabaseRegion()
        for table in region.tables where !reportedElsewhere.contains(table) && !table.hasPrefix("sqlite_") {
            if trackedTables.contains(table) {
                observable.formUnion(DatabaseRegion(tables: [table]))
            } else if let sources = triggerSources[table] {
                observable.formUnion(DatabaseRegion(tables: sources))
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
