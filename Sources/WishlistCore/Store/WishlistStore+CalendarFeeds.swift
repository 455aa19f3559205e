import Foundation
import Persistence

/// A calendar feed as the owner sees it: a subscribable calendar of every trip or of one. Its
/// secret is in its URL, shown once by whoever made it; only the secret's hash is stored.
public struct CalendarFeed: Sendable, Hashable {
    public let name: String
    /// The trip it shows; nil for every trip.
    public let tripID: Trip.ID?
    public let creationDate: Date

    /// The trips it shows.
    public var scope: TripScope { tripID.map(TripScope.trip) ?? .all }
}

extension WishlistStore {
    /// Stores a new feed by the hash of its secret. The name must be new (as a token's: letters,
    /// digits, - and _); the trip, when given, must exist.
    @discardableResult
    public func addCalendarFeed(name: String, tripID: Trip.ID?, secretHash: String) throws -> CalendarFeed {
        let name = try Self.validatedSecretName(name, example: "phone-calendar")
        let feed = CalendarFeed(name: name, tripID: tripID, creationDate: clock.now())
        try database.write(author: Self.appAuthor) { connection in
            if let tripID { try Self.requireTrip(id: tripID, on: connection) }
            guard try connection.fetchOne("SELECT 1 FROM CalendarFeed WHERE name = ?", [name]) == nil else {
                throw ValidationError(field: "name", message: "There is already a feed called “\(name)”. Pick another name, or revoke that one first.")
            }
            try connection.execute("INSERT INTO CalendarFeed(name, secret_hash, trip_id, creation_date) VALUES (?, ?, ?, ?)",
                                   [name, secretHash, tripID, feed.creationDate])
        }
        return feed
    }

    /// Every feed, by name.
    public func calendarFeeds() throws -> [CalendarFeed] {
        try database.read { connection in
            try connection.fetchAll("SELECT \(Self.feedColumns) FROM CalendarFeed ORDER BY name").map(Self.feed)
        }
    }

    /// The feed whose secret has this hash (an index lookup: see `apiToken(secretHash:)`).
    public static func calendarFeed(secretHash: String) -> WishlistQuery<CalendarFeed?> {
        WishlistQuery { connection in
            try connection.fetchOne("SELECT \(feedColumns) FROM CalendarFeed WHERE secret_hash = ?", [secretHash]).map(feed)
        }
    }

    /// Gives the feed a new secret: its old URL answers 404 from the next request on.
    public func rotateCalendarFeed(name: String, secretHash: String) throws {
        try database.write(author: Self.appAuthor) { connection in
            try connection.execute("UPDATE CalendarFeed SET secret_hash = ? WHERE name = ?", [secretHash, name])
            if connection.changes == 0 { throw WishlistError.noSuchSecret(kind: "calendar feed", name: name) }
        }
    }

    /// Deletes the feed: its URL answers 404 from the next request on.
    public func revokeCalendarFeed(name: String) throws {
        try database.write(author: Self.appAuthor) { connection in
            try connection.execute("DELETE FROM CalendarFeed WHERE name = ?", [name])
            if connection.changes == 0 { throw WishlistError.noSuchSecret(kind: "calendar feed", name: name) }
        }
    }

    private static let feedColumns = "name, trip_id, creation_date"

    private static func feed(_ row: Row) -> CalendarFeed {
        CalendarFeed(name: row["name"], tripID: row["trip_id"], creationDate: row["creation_date"])
    }
}
