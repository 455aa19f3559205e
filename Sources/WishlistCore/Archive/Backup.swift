import Foundation
import Persistence

/// How far an export or import has come, in items (trips plus activities), for progress displays.
public struct ArchiveProgress: Hashable, Sendable {
    public let itemsDone: Int
    public let itemsTotal: Int
}

/// What an import brought in.
public struct ImportSummary: Hashable, Sendable {
    public let trips: Int
    public let activities: Int
}

/// Export and import of the whole wishlist as one JSON document (docs/EXPORT-FORMAT.md).
public struct Backup: Sendable {
    public static let importAuthor = "import"
    static let importCacheKilobytes = 512 * 1024
    let store: WishlistStore

    public init(store: WishlistStore) {
        self.store = store
    }

    /// Writes every trip, activity, goal and preference, as of one moment, to `url`.
    public func export(to url: URL, progress: (ArchiveProgress) -> Void = { _ in }) throws {
        try store.database.read { connection in
            let total = try connection.fetchScalar(Int.self, "SELECT (SELECT count(*) FROM Trip) + (SELECT count(*) FROM Activity)") ?? 0
            let writer = try ArchiveWriter(
                url: url, exportedAt: store.clock.now(),
                preferences: ArchivePreferences(activitySortOrder: try WishlistQuery.activitySortOrder.fetch(connection)),
                goals: try connection.fetchAll(Goal.self, "SELECT * FROM Goal ORDER BY sort_order").map(ArchiveGoal.init))
            var done = 0
            progress(ArchiveProgress(itemsDone: done, itemsTotal: total))
            try ArchiveExporter.forEachBatch(on: connection) { trips in
                for trip in trips {
                    try writer.write(trip)
                    done += 1 + trip.activities.count
                }
                progress(ArchiveProgress(itemsDone: done, itemsTotal: total))
            }
            try writer.finish()
        }
    }

    /// Replaces the whole wishlist with the archive at `url`, in one transaction (author "import"):
    /// a file with any problem changes nothing and throws an `ArchiveError` naming the first one.
    @discardableResult
    public func `import`(from url: URL, progress: (ArchiveProgress) -> Void = { _ in }) throws -> ImportSummary {
        let archive = try Self.read(url)
        let total = archive.trips.reduce(0) { $0 + 1 + $1.activities.count }
        return try store.database.write(author: Self.importAuthor) { connection in
            // The indexes of a large import outgrow SQLite's default 2 MB page cache; pages that
            // spill must then be found again in the WAL, which slows each insert as it grows.
            let cacheSize = try connection.fetchScalar(Int.self, "PRAGMA cache_size") ?? -2000
            try connection.execute("PRAGMA cache_size = -\(Self.importCacheKilobytes)")
            defer { try? connection.execute("PRAGMA cache_size = \(cacheSize)") }
            try Schema.withoutTriggers(on: connection) {
                try connection.execute("DELETE FROM Activity; DELETE FROM Trip; DELETE FROM TripImage; UPDATE Goal SET date_achieved = NULL")
                try insert(archive.trips, total: total, on: connection, progress: progress)
            }
            // Achievement dates are history worth keeping, for goals the import leaves achieved.
            for goal in archive.goals ?? [] {
                guard let dateAchieved = goal.dateAchieved else { continue }
                try connection.execute("UPDATE Goal SET date_achieved = ? WHERE badge = ? AND is_achieved", [dateAchieved, goal.badge])
            }
            if let order = archive.preferences?.activitySortOrder {
                try Preferences.set(.activitySortOrder, to: order.rawValue, on: connection)
            }
            try Preferences.set(.seeded, to: "true", on: connection)
            progress(ArchiveProgress(itemsDone: total, itemsTotal: total))
            return ImportSummary(trips: archive.trips.count, activities: total - archive.trips.count)
        }
    }

    private func insert(_ trips: [ArchiveTrip], total: Int, on connection: Connection,
                        progress: (ArchiveProgress) -> Void) throws {
        let importTime = store.clock.now()
        var done = 0
        var nextReport = 0
        for trip in trips {
            if done >= nextReport {
                progress(ArchiveProgress(itemsDone: done, itemsTotal: total))
                nextReport = done + 10_000
            }
            let creationDate = trip.creationDate ?? importTime
            let tripID = try Rows.insertTrip(name: trip.name, subtitle: trip.subtitle, collection: trip.collection,
                                             creationDate: creationDate, on: connection)
            for activity in trip.activities {
                let dateCreated = activity.dateCreated ?? creationDate
                _ = try Rows.insertActivity(tripID: tripID, name: activity.name, isComplete: activity.isComplete,
                                            dateCreated: dateCreated, dateEdited: activity.dateEdited ?? dateCreated,
                                            on: connection)
            }
            done += 1 + trip.activities.count
        }
    }

    /// The decoded, validated archive, or an `ArchiveError` for the first problem.
    static func read(_ url: URL) throws -> Archive {
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw ArchiveError(location: "", message: "cannot read \(url.path): \(error.localizedDescription)")
        }
        do {
            return try JSONDecoder.archive.decode(Archive.self, from: data)
        } catch let error as DecodingError {
            throw ArchiveError(error, in: data)
        }
    }
}
