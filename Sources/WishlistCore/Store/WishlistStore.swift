import Foundation
import Persistence

/// The wishlist's data: opens (and migrates) the database file, offers the sample trips once,
/// and answers the screens' queries and writes. Safe to share between threads.
public final class WishlistStore: Sendable {
    public let database: Database

    /// Opens or creates the database at `path` and seeds an empty one once (author "seed").
    public init(path: String) throws {
        database = try Database(path: path, migrations: Schema.migrations)
        try seedOnce()
    }

    /// Closes the database; the store cannot be used afterwards.
    public func close() {
        database.close()
    }

    /// Runs `query` once on a reader.
    public func fetch<Value>(_ query: WishlistQuery<Value>) throws -> Value {
        try database.read(query.fetch)
    }

    /// Keeps `query`'s result up to date after every commit that touches its tables.
    public func observe<Value: Equatable>(_ query: WishlistQuery<Value>) throws -> ResultsObserver<Value> {
        try ResultsObserver(database: database, tables: query.tables, fetch: query.fetch)
    }

    private func seedOnce() throws {
        guard try database.read({ try Preferences.value(.seeded, on: $0) }) == nil else { return }
        try database.write(author: "seed") { connection in
            // Another process may have seeded between the read and this write.
            guard try Preferences.value(.seeded, on: connection) == nil else { return }
            if try connection.fetchScalar(Int.self, "SELECT count(*) FROM Trip") == 0 {
                try SampleTrips.insert(on: connection)
            }
            try Preferences.set(.seeded, to: "true", on: connection)
        }
    }
}

extension SampleTrips {
    /// Inserts the sample trips one minute apart, oldest first, so "recently added" is well defined.
    static func insert(on connection: Connection) throws {
        let start = Date.nowToTheMillisecond.addingTimeInterval(-Double(all.count) * 60)
        for (index, sample) in all.enumerated() {
            let creationDate = start.addingTimeInterval(Double(index) * 60)
            let tripID = try Rows.insertTrip(name: sample.name, subtitle: nil, collection: sample.collection,
                                             creationDate: creationDate, on: connection)
            for (offset, activity) in sample.activities.enumerated() {
                let date = creationDate.addingTimeInterval(Double(offset))
                _ = try Rows.insertActivity(tripID: tripID, name: activity.name, isComplete: activity.isComplete,
                                            dateCreated: date, dateEdited: date, on: connection)
            }
        }
    }
}
