import CSQLite

/// One step of the schema, applied once, in version order, in its own transaction.
/// The newest applied version is kept in `PRAGMA user_version`.
public struct Migration: Sendable {
    public let version: Int
    public let name: String
    /// Runs with foreign keys off, checked before it commits: needed to rebuild a table that
    /// others reference (`Connection.rebuildTable`), whose drop would otherwise cascade.
    public let rebuildsTables: Bool
    public let migrate: @Sendable (Connection) throws -> Void

    public init(version: Int, name: String, rebuildsTables: Bool = false, _ migrate: @escaping @Sendable (Connection) throws -> Void) {
        self.version = version
        self.name = name
        self.rebuildsTables = rebuildsTables
        self.migrate = migrate
    }
}

public enum MigrationError: Error, CustomStringConvertible, Sendable {
    /// The file's schema is newer than every migration this build knows: opening it could lose data.
    case schemaTooNew(path: String, fileVersion: Int, newestKnownVersion: Int)
    /// Versions must be positive and unique.
    case invalidVersions([Int])
    /// A migration threw; nothing of it was applied.
    case failed(version: Int, name: String, underlying: any Error)

    public var description: String {
        switch self {
        case .schemaTooNew(let path, let fileVersion, let newestKnownVersion):
            "\(path) was written by a newer version of this app (schema \(fileVersion), this build knows up to \(newestKnownVersion)); it was left unchanged. Please use the newer version."
        case .invalidVersions(let versions):
            "migration versions must be positive and unique, got \(versions)"
        case .failed(let version, let name, let underlying):
            "migration \(version) (\(name)) failed and was rolled back: \(underlying)"
        }
    }
}

enum Migrator {
    static func schemaVersion(_ connection: Connection) throws -> Int {
        try connection.fetchScalar(Int.self, "PRAGMA user_version") ?? 0
    }

    /// Refuses a file from a newer build before anything is written to it.
    static func checkCompatibility(_ connection: Connection, path: String, migrations: [Migration]) throws {
        let versions = migrations.map(\.version)
        guard versions.allSatisfy({ $0 > 0 }), Set(versions).count == versions.count else {
            throw MigrationError.invalidVersions(versions)
        }
        let newest = versions.max() ?? 0
        let fileVersion = try schemaVersion(connection)
        guard fileVersion <= newest else {
            throw MigrationError.schemaTooNew(path: path, fileVersion: fileVersion, newestKnownVersion: newest)
        }
    }

    static func migrate(_ connection: Connection, migrations: [Migration]) throws {
        for migration in migrations.sorted(by: { $0.version < $1.version }) {
            // Outside the transaction: SQLite ignores these pragmas inside one.
            let foreignKeys = try connection.fetchScalar(Int.self, "PRAGMA foreign_keys") ?? 0
            if migration.rebuildsTables {
                try connection.execute("PRAGMA foreign_keys = OFF")
                // A rename then leaves other tables' triggers as written: they name the table
                // being rebuilt, which exists again once the rebuild ends.
                try connection.execute("PRAGMA legacy_alter_table = ON")
            }
            defer {
                if migration.rebuildsTables {
                    try? connection.execute("PRAGMA legacy_alter_table = OFF")
                    try? connection.execute("PRAGMA foreign_keys = \(foreignKeys)")
                }
            }
            try connection.inTransaction("BEGIN IMMEDIATE") {
                // Read inside the write lock: another process may have migrated meanwhile.
                guard try schemaVersion(connection) < migration.version else { return }
                do {
                    try migration.migrate(connection)
                    if migration.rebuildsTables, let broken = try connection.fetchAll("PRAGMA foreign_key_check").first {
                        throw DatabaseError(extendedResultCode: SQLITE_CONSTRAINT | (3 << 8),  // SQLITE_CONSTRAINT_FOREIGNKEY
                                            message: "a row of \(broken["table"] as String) names a missing row after the rebuild")
                    }
                } catch {
                    throw MigrationError.failed(version: migration.version, name: migration.name, underlying: error)
                }
                try connection.execute("PRAGMA user_version = \(migration.version)")
            }
        }
    }
}
