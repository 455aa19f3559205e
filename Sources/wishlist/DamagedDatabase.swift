import Persistence
import WishlistCore

/// A database file SQLite cannot read stops `serve` with the restore steps instead of a trace.
enum DamagedDatabase {
    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    static func explained<T>(_ invocation: Invocation, _ open: () throws -> T) throws -> T {
        do {
            return try open()
        } catch let error as DatabaseError where error.isCorrupt {
            throw Refusal(description: "The database \(invocation.databasePath) is damaged (\(error.message)); nothing was changed. "
                          + Backup.restoreSteps(forDatabaseAt: invocation.databasePath))
        }
    }
}
