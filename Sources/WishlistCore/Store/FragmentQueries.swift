import Persistence

/// One collection's row on the Wishlist screen: its first trips by name, and how many it holds.
public struct CollectionRow: Hashable, Sendable {
    public let collection: TripCollection
    public let trips: [Trip]
    public let tripCount: Int

    /// Trips beyond those shown, one "Show all" away.
    public var hasMore: Bool { tripCount > trips.count }
}

/// A trip with its checklist in the remembered sort order: the trip page's list and the JSON API's trip.
public struct TripChecklist: Hashable, Sendable {
    public let trip: Trip
    public let order: ActivitySortOrder
    public let activities: [Activity]
}

/// One page of a collection's trips ("Show all"), the page number clamped into range.
public struct CollectionListing: Hashable, Sendable {
    public let collection: TripCollection
    public let trips: [Trip]
    public let tripCount: Int
    public let pageNumber: Int
    public let pageCount: Int
}

extension WishlistQuery where Value == CollectionRow {
    public static func collectionRow(_ collection: TripCollection, limit: Int) -> Self {
        let trips = WishlistQuery<[Trip]>.trips(in: collection, limit: limit)
        let count = WishlistQuery<Int>.tripCount(in: collection)
        return Self { connection in
            CollectionRow(collection: collection, trips: try trips.fetch(connection), tripCount: try count.fetch(connection))
        }
    }
}

extension WishlistQuery where Value == TripChecklist? {
    /// Nil when the trip does not exist (any more).
    public static func checklist(tripID: Int64) -> Self {
        let trip = WishlistQuery<Trip?>.trip(id: tripID)
        let order = WishlistQuery<ActivitySortOrder>.activitySortOrder
        return Self { connection in
            guard let trip = try trip.fetch(connection) else { return nil }
            let order = try order.fetch(connection)
            return TripChecklist(trip: trip, order: order,
                                 activities: try WishlistQuery<[Activity]>.activities(tripID: tripID, sortedBy: order).fetch(connection))
        }
    }
}

extension WishlistQuery where Value == CollectionListing {
    /// Page `pageNumber` (from 1) of `pageSize` trips; a number out of range shows the nearest page.
    public static func collectionListing(_ collection: TripCollection, pageNumber: Int, pageSize: Int) -> Self {
        let count = WishlistQuery<Int>.tripCount(in: collection)
        return Self { connection in
            let total = try count.fetch(connection)
            let page = PageNumbering(itemCount: total, pageSize: pageSize, asked: pageNumber)
            let trips = try WishlistQuery<[Trip]>.trips(in: collection, limit: pageSize, offset: page.offset).fetch(connection)
            return CollectionListing(collection: collection, trips: trips, tripCount: total, pageNumber: page.number, pageCount: page.count)
        }
    }
}
