/// The part of the database a read depends on, in the spirit of GRDB's `DatabaseRegion`: tables,
/// of each the columns read across its rows, and the rows read by rowid (whole). The statements'
/// part is what SQLite reports while they are prepared (`StatementAuthorizer`); the rows are
/// added by reads of records by id (`Connection.fetchKept`).
///
/// Columns matter because a commit that only updates columns a query never reads cannot change
/// its result (a check-off changes an activity's state and its trip's counters, never a name
/// search looks at). Inserted and deleted rows change every query of their table, whatever
/// columns it reads (even `count(*)`, which reads none). Rows matter because a list's records
/// read by id change only with their own rows: a check-off in one trip leaves the trips a page
/// shows as they were.
public struct DatabaseRegion: Sendable, Hashable {
    /// Each table read across its rows, with the columns read of it; nil: its columns cannot be
    /// told apart (a table named whole), so any change to it counts.
    private(set) var columnsByTable: [String: Set<String>?]
    /// Each table read by rowid, with the rows read: only a change to one of them counts.
    public private(set) var rowsByTable: [String: Set<Int64>]
    /// True when what was read cannot be named by table (e.g. a temporary table): any commit may change it.
    public private(set) var isFullDatabase: Bool

    /// Every column of `tables`.
    public init(tables: Set<String> = []) {
        columnsByTable = Dictionary(uniqueKeysWithValues: tables.map { ($0, nil) })
        rowsByTable = [:]
        isFullDatabase = false
    }

    /// `columns` of `table` (none: only its rows' coming and going, as `count(*)` reads).
    public init(table: String, columns: Set<String>) {
        columnsByTable = [table: columns]
        rowsByTable = [:]
        isFullDatabase = false
    }

    /// The rows of `table` with these rowids, whole.
    public init(table: String, rowIDs: Set<Int64>) {
        columnsByTable = [:]
        rowsByTable = [table: rowIDs]
        isFullDatabase = false
    }

    public static let fullDatabase: DatabaseRegion = {
        var region = DatabaseRegion()
        region.isFullDatabase = true
        return region
    }()

    /// The tables read, across their rows or by rowid.
    public var tables: Set<String> { Set(columnsByTable.keys).union(rowsByTable.keys) }

    /// The columns read of `table` across its rows; nil for a table read whole (or not read
    /// that way: see `tables` and `rowsByTable`).
    public func columns(of table: String) -> Set<String>? {
        columnsByTable[table] ?? nil
    }

    /// Whether `table` is read across its rows (by a statement), not only by rowid.
    func isScanned(_ table: String) -> Bool {
        columnsByTable[table] != nil
    }

    /// The part of this region that reads `table`.
    func restricted(to table: String) -> DatabaseRegion {
        var part = DatabaseRegion()
        part.columnsByTable[table] = columnsByTable[table]
        part.rowsByTable[table] = rowsByTable[table]
        return part
    }

    public var isEmpty: Bool { !isFullDatabase && columnsByTable.isEmpty && rowsByTable.isEmpty }

    public mutating func formUnion(_ other: DatabaseRegion) {
        for (table, columns) in other.columnsByTable {
            if let present = columnsByTable[table] {
                columnsByTable[table] = present.flatMap { present in columns.map { present.union($0) } }
            } else {
                columnsByTable[table] = columns
            }
        }
        for (table, rows) in other.rowsByTable {
            rowsByTable[table, default: []].formUnion(rows)
        }
        isFullDatabase = isFullDatabase || other.isFullDatabase
    }

    public func union(_ other: DatabaseRegion) -> DatabaseRegion {
        var union = self
        union.formUnion(other)
        return union
    }

    /// Whether `changes` may change what this region reads: a table it reads across its rows had
    /// rows inserted or deleted, or an updated column that the region reads; or a row it reads by
    /// rowid changed (`changedRows`, by table).
    public func intersects(_ changes: TableChanges, changedRows: [String: [Int64]] = [:]) -> Bool {
        guard !isFullDatabase else { return true }
        for (table, columns) in columnsByTable where changes.tables.contains(table) {
            guard let columns, let updated = changes.updatedColumns[table], columns.isDisjoint(with: updated) else { return true }
        }
        for (table, rows) in rowsByTable where changes.tables.contains(table) {
            // A table changed without its rows told (none tracked) may have changed any of them.
            guard let changed = changedRows[table] else { return true }
            if changed.contains(where: rows.contains) { return true }
        }
        return false
    }
}

/// What one commit changed, table by table: the tables whose rows changed, and for those whose
/// rows were only updated, the columns that changed (`ChangeTracker`).
public struct TableChanges: Sendable, Equatable {
    public let tables: Set<String>
    /// Tables of `tables` whose rows were only updated → the columns whose values changed
    /// (generated columns included). A table of `tables` missing here changed whole.
    public let updatedColumns: [String: Set<String>]

    public init(tables: Set<String>, updatedColumns: [String: Set<String>] = [:]) {
        self.tables = tables
        self.updatedColumns = updatedColumns.filter { tables.contains($0.key) }
    }
}

/// A column of a table, as the authorizer names it.
struct TableColumn: Hashable {
    let table: String
    let column: String
}
