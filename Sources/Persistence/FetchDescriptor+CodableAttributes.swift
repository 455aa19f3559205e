/// How a schema marks a column holding a `CodableAttribute`: its declared type, e.g.
/// `ALTER TABLE Trip ADD COLUMN place CODABLE_TEXT`. The name contains "TEXT", so SQLite gives
/// the column TEXT affinity and keeps the JSON exactly as written.
public enum CodableAttributeColumn {
    public static let declaredType = "CODABLE_TEXT"
}

extension Connection {
    /// Throws `DatabaseError.misuse` when the descriptor's predicate, ordering or section key
    /// reads a codable attribute column: its JSON is the encoder's business, and its shape may
    /// change without a migration, so no comparison or order on it means anything. The columns
    /// read are SQLite's own account (the authorizer, while preparing a probe without `*`), so
    /// quoting, aliases, functions and subqueries cannot hide one.
    func refuseCodableAttributes(in descriptor: FetchDescriptor) throws {
        guard let probe = descriptor.filteringSQL, !descriptorsWithoutCodableAttributes.contains(probe) else { return }
        for read in try columnsRead(by: probe).sorted(by: { ($0.table, $0.column) < ($1.table, $1.column) })
        where try codableAttributeColumns(of: read.table).contains(read.column.lowercased()) {
            throw DatabaseError.misuse("""
                \(read.table).\(read.column) holds a codable attribute (JSON the database does not look into): \
                it cannot be used to filter, sort or section a query
                """, sql: descriptor.sql)
        }
        descriptorsWithoutCodableAttributes.insert(probe)
    }

    /// The lowercased names of `table`'s columns declared `CodableAttributeColumn.declaredType`.
    private func codableAttributeColumns(of table: String) throws -> Set<String> {
        Set(try fetchAll("SELECT name FROM pragma_table_xinfo(?) WHERE upper(type) = ?", [table, CodableAttributeColumn.declaredType])
            .map { ($0["name"] as String).lowercased() })
    }
}

extension FetchDescriptor {
    /// The descriptor's query reading only what decides which rows come and in which order;
    /// nil when nothing does.
    var filteringSQL: String? {
        filterAndOrder.isEmpty ? nil : "SELECT 1 FROM \(quotedIdentifier(table))" + filterAndOrder
    }
}
