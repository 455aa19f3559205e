import Foundation
import Persistence

/// The wishlist's data: opens (and migrates) the database file, offers the sample trips once,
/// and answers the screens' queries and writes. Safe to share between threads.
public final class WishlistStore: Sendable {
    public let database: Database
    /// The photos' files, in the `images` folder beside the database file.
    public let photos: PhotoLibrary
    /// What the dates the store writes are read from.
    public let clock: DateSource

    /// Opens or creates the database at `path` and seeds an empty one once (author "seed").
    public init(path: String, photoLimits: PhotoLimits = PhotoLimits(), clock: DateSource = .system) throws {
        self.clock = clock
        database = try Database(path: path, migrations: Schema.migrations)
        photos = try PhotoLibrary(directory: Self.imagesDirectory(forDatabaseAt: path), limits: photoLimits)
        try seedOnce()
    }

    public static func imagesDirectory(forDatabaseAt path: String) -> URL {
        URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("images", isDirectory: true)
    }

    /// Closes the database; the store cannot be used afterwards.
    public func close() {
        database.close()
    }

    /// Runs `body` in one read transaction: a screen reads all its fragments from one snapshot.
    public func read<T>(_ body: (WishlistSnapshot) throws -> T) throws -> T {
        try database.read { try body(WishlistSnapshot(connection: $0)) }
    }

    /// Runs `query` once on a reader.
    public func fetch<Value>(_ query: WishlistQuery<Value>) throws -> Value {
        try database.read(query.fetch)
    }

    /// Keeps `query`'s result up to date after every commit that touches the tables its SQL read.
    public func observe<Value: Equatable>(_ query: WishlistQuery<Value>) throws -> ResultsObserver<Value> {
        try ResultsObserver(database: database, fetch: query.fetch)
    }

    private func seedOnce() throws {
        guard try database.read({ try Preferences.value(.seeded, on: $0) }) == nil else { return }
        let samplePhotos = try SamplePhotos.prepared(with: photos)
        let sampleFields = SampleTrips.fields  // gazetteer searches, kept out of the write transaction
        try photos.committing(samplePhotos) { storedPhotos in
            try database.write(author: "seed") { connection in
                // Another process may have seeded between the read and this write (its photo
                // files are the same content, so nothing is left over).
                guard try Preferences.value(.seeded, on: connection) == nil else { return ((), released: []) }
                if try connection.fetchScalar(Int.self, "SELECT count(*) FROM Trip") == 0 {
                    let now = clock.now()
                    try SampleTrips.insert(sampleFields, photos: storedPhotos, endingAt: now, on: connection)
                    // The triggers dated the goals the samples achieve by SQLite's clock, not the store's.
                    try connection.execute("UPDATE Goal SET date_achieved = ? WHERE is_achieved", [now])
                }
                try Preferences.set(.seeded, to: "true", on: connection)
                return ((), released: [])
            }
        }
    }
}

extension SampleTrips {
    /// Inserts the sample trips one minute apart, oldest first, the last a minute before `end`,
    /// so "recently added" is well defined, each with its fields and photo (both in the order of `all`).
    static func insert(_ fields: [TripFields], photos: [StoredPhoto], endingAt end: Date, on connection: Connection) throws {
        let start = end.addingTimeInterval(-Double(all.count) * 60)
        for (index, sample) in all.enumerated() {
            let creationDate = start.addingTimeInterval(Double(index) * 60)
            let tripID = try Rows.insertTrip(fields[index], creationDate: creationDate, on: connection)
            let photo = photos[index]
            try PhotoRows.add(photo, toTrip: tripID, .first, on: connection)
            for (offset, activity) in sample.activities.enumerated() {
                let date = creationDate.addingTimeInterval(Double(offset))
                _ = try Rows.insertActivity(tripID: tripID, name: activity.name, isComplete: activity.isComplete,
                                            dateCreated: date, dateEdited: date, on: connection)
            }
        }
    }
}
