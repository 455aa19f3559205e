/// The part of the database a query reads, as SQLite reports it while the query's statements are
/// prepared (`StatementAuthorizer`), in the spirit of GRDB's `DatabaseRegion`: tables, and of each
/// the columns read.
///
/// Columns matter because a commit that only updates columns a query never reads cannot change
/// its result (a check-off changes an activity's state and its trip's counters, never a name
/// search looks at). Inserted and deleted rows change every query of their table, whatever
/// columns it reads (even `count(*)`, which reads none).
public struct DatabaseRegion: Sendable, Hashable {
    /// Each table read, with the columns read of it; nil: its columns cannot be told apart (a
    /// table named whole), so any change to it counts.
    private(set) var columnsByTable: [String: Set<String>?]
    /// True when what was read cannot be named by table (e.g. a temporary table): any commit may change it.
    public private(set) var isFullDatabase: Bool

    /// Every column of `tables`.
    public init(tables: Set<String> = []) {
        columnsByTable = Dictionary(uniqueKeysWithValues: tables.map { ($0, nil) })
        isFullDatabase = false
    }

    /// `columns` of `table` (none: only its rows' coming and going, as `count(*)` reads).
    public init(table: String, columns: Set<String>) {
        columnsByTable = [table: columns]
        isFullDatabase = false
    }

    public static let fullDatabase: DatabaseRegion = {
        var region = DatabaseRegion()
        region.isFullDatabase = true
        return region
    }()

    public var tables: Set<String> { Set(columnsByTable.keys) }

    /// The columns read of `table`; nil for a table read whole (or not read: see `tables`).
    public func columns(of table: String) -> Set<String>? {
        columnsByTable[table] ?? nil
    }

    /// The part of this region that reads `table`.
    func restricted(to table: String) -> DatabaseRegion {
        var part = DatabaseRegion()
        part.columnsByTable[table] = columnsByTable[table]
        return part
    }

    public var isEmpty: Bool { !isFullDatabase && columnsByTable.isEmpty }

    public mutating func formUnion(_ other: DatabaseRegion) {
        for (table, columns) in other.columnsByTable {
            if let present = columnsByTable[table] {
                columnsByTable[table] = present.flatMap { present in columns.map { present.union($0) } }
            } else {
                columnsByTable[table] = columns
            }
        }
        isFullDatabase = isFullDatabase || other.isFullDatabase
    }

    public func union(_ other: DatabaseRegion) -> DatabaseRegion {
        var union = self
        union.formUnion(other)
        return union
    }

    /// Whether a change to any of `changedTables` may change what this region reads.
    public func intersects(_ changedTables: Set<String>) -> Bool {
        isFullDatabase || !changedTables.isDisjoint(with: columnsByTable.keys)
    }

    /// Whether `changes` may change what this region reads: a table of it had rows inserted or
    /// deleted, or an updated column that the region reads.
    public func intersects(_ changes: TableChanges) -> Bool {
        guard !isFullDatabase else { return true }
        for (table, columns) in columnsByTable where changes.tables.contains(table) {
            guard let columns, let updated = changes.updatedColumns[table], columns.isDisjoint(with: updated) else { return true }
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
