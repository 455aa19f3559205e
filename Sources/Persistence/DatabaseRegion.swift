/// The part of the database a query reads, as SQLite reports it while the query's statements are
/// prepared (`StatementAuthorizer`), in the spirit of GRDB's `DatabaseRegion`.
///
/// Its grain is the table: commits report changed tables (SQLite's update hook says which rows
/// changed, never which columns), and the app's queries read most columns of what they touch, so
/// columns would rarely spare a re-run.
public struct DatabaseRegion: Sendable, Hashable {
    public private(set) var tables: Set<String>
    /// True when what was read cannot be named by table (e.g. a temporary table): any commit may change it.
    public private(set) var isFullDatabase: Bool

    public init(tables: Set<String> = []) {
        self.tables = tables
        isFullDatabase = false
    }

    public static let fullDatabase: DatabaseRegion = {
        var region = DatabaseRegion()
        region.isFullDatabase = true
        return region
    }()

    public var isEmpty: Bool { !isFullDatabase && tables.isEmpty }

    public mutating func formUnion(_ other: DatabaseRegion) {
        tables.formUnion(other.tables)
        isFullDatabase = isFullDatabase || other.isFullDatabase
    }

    public func union(_ other: DatabaseRegion) -> DatabaseRegion {
        var union = self
        union.formUnion(other)
        return union
    }

    /// Whether a change to any of `changedTables` may change what this region reads.
    public func intersects(_ changedTables: Set<String>) -> Bool {
        isFullDatabase || !tables.isDisjoint(with: changedTables)
    }
}
