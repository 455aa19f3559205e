import Foundation
import Persistence
import Testing
import TestSupport
@testable import WishlistCore

/// A fresh directory under the system temp dir, removed when the test ends.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("WishlistCoreTests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    var databasePath: String { path + "/wishlist.sqlite" }
}

/// A store on a new file in its own temporary directory.
final class TestStore {
    let directory: TemporaryDirectory
    private(set) var store: WishlistStore

    /// Dates from `clock` when given, else from the system's.
    init(clock: ManualClock? = nil) throws {
        directory = try TemporaryDirectory()
        store = try WishlistStore(path: directory.databasePath, clock: clock.map { clock in DateSource { clock.date } } ?? .system)
    }

    /// Closes the file and opens it again, as a restart of the app would.
    func reopen() throws {
        store.close()
        store = try WishlistStore(path: directory.databasePath, clock: store.clock)
    }

    /// Deletes every sample trip, leaving an empty wishlist with no progress.
    func deleteAllTrips() throws {
        for collection in TripCollection.allCases {
            for trip in try store.trips(in: collection, limit: 100) { try store.deleteTrip(id: trip.id) }
        }
    }

    func goal(_ badge: String) throws -> Goal {
        let goals = try store.achievedGoals() + store.upcomingGoals()
        return try #require(goals.first { $0.badge == badge })
    }

    func count(_ sql: String) throws -> Int {
        try store.database.read { try $0.fetchScalar(Int.self, sql) ?? 0 }
    }

    func allActivities() throws -> [Activity] {
        try store.database.read { try $0.fetchAll(Activity.self, "SELECT \(Activity.selection) FROM Activity") }
    }
}
