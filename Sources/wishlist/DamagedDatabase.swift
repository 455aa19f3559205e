import Foundation
import Persistence
import WishlistCore

/// A database `serve` cannot trust stops the start with the restore steps: a damaged file, or
/// one gone from a folder that still holds its photos (starting would seed the samples over the
/// loss without a word).
enum DamagedDatabase {
    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    static func explained<T>(_ invocation: Invocation, _ open: () throws -> T) throws -> T {
        let path = invocation.databasePath
        let photos = WishlistStore.imagesDirectory(forDatabaseAt: path).path
        if !FileManager.default.fileExists(atPath: path),
           let names = try? FileManager.default.contentsOfDirectory(atPath: photos), !names.isEmpty {
            throw Refusal(description: "The database \(path) is missing, but \(photos) holds \(names.count) photo files of a wishlist; nothing was changed. "
                          + Backup.restoreSteps(forDatabaseAt: path) + " To start an empty wishlist instead, move the folder aside.")
        }
        do {
            return try open()
        } catch let error as DatabaseError where error.isCorrupt {
            throw Refusal(description: "The database \(path) is damaged (\(error.message)); nothing was changed. "
                          + Backup.restoreSteps(forDatabaseAt: path))
        }
    }
}
