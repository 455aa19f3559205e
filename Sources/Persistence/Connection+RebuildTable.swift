import CSQLite

extension Connection {
    /// Rebuilds table `name` from a new definition, `define` applied to its current `CREATE
    /// TABLE` statement, keeping its rows, indexes and triggers: what ALTER TABLE cannot change
    /// (SQLite's procedure, https://sqlite.org/lang_altertable.html#otheralter). Only inside a
    /// `Migration` that `rebuildsTables`: the old table's drop must not cascade.
    public func rebuildTable(_ name: String, define: (String) -> String) throws {
        guard let definition = try fetchScalar(String.self, "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?", [name]) else {
            throw DatabaseError(extendedResultCode: SQLITE_ERROR, message: "no table \(name) to rebuild")
        }
        let dependents = try fetchAll("""
            SELECT sql FROM sqlite_schema WHERE tbl_name = ? AND type IN ('index', 'trigger') AND sql IS NOT NULL
            """, [name]).map { $0["sql"] as String }
        // Generated columns (hidden 2 and 3) are computed, not copied.
        let columns = try fetchAll("SELECT name FROM pragma_table_xinfo(?) WHERE hidden = 0", [name])
            .map { "\"\($0["name"] as String)\"" }.joined(separator: ", ")
        let rebuilt = "\(name)_rebuilt"
        let createTable = "CREATE TABLE \(name) "
        let newDefinition = define(definition)
        guard newDefinition.hasPrefix(createTable) else {
            throw DatabaseError(extendedResultCode: SQLITE_ERROR, message: "the definition of \(name) must start with \(createTable)")
        }
        try execute("CREATE TABLE \(rebuilt) " + newDefinition.dropFirst(createTable.count))
        try execute("INSERT INTO \(rebuilt) (\(columns)) SELECT \(columns) FROM \(name)")
        try execute("DROP TABLE \(name)")
        try execute("ALTER TABLE \(rebuilt) RENAME TO \(name)")
        for statement in dependents { try execute(statement) }
    }
}
