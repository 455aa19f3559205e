import Persistence

/// One question a screen asks, as a value: the SQL that answers it (predicate, sort and limit in
/// the database), so that the same query serves a one-off read (`WishlistStore.fetch`) and a live
/// `ResultsObserver` (`WishlistStore.observe`), which learns the tables it reads from that SQL.
public struct WishlistQuery<Value: Sendable>: Sendable {
    public let fetch: @Sendable (Connection) throws -> Value

    public init(fetch: @escaping @Sendable (Connection) throws -> Value) {
        self.fetch = fetch
    }
}

extension WishlistQuery where Value == [Trip] {
    /// The most recently created trips, newest first.
    public static func recentTrips(limit: Int = 5, offset: Int = 0) -> Self {
        Self { connection in
            try Trip.kept(matching: "SELECT Trip.id FROM Trip ORDER BY Trip.creation_date DESC, Trip.id DESC LIMIT ? OFFSET ?",
                          [limit, offset], on: connection)
        }
    }

    /// One page of a collection's trips, by name (ignoring case and accents).
    public static func trips(in collection: TripCollection, limit: Int, offset: Int = 0) -> Self {
        let (condition, arguments) = TripScope.collection(collection).condition
        return Self { connection in
            try Trip.kept(matching: """
                SELECT Trip.id FROM Trip WHERE \(condition) ORDER BY Trip.name_folded, Trip.name, Trip.id LIMIT ? OFFSET ?
                """, arguments + [limit, offset], on: connection)
        }
    }
}

extension WishlistQuery where Value == Int {
    /// Kept by triggers (Schema.collectionRows): one lookup, however many trips there are.
    public static func tripCount(in collection: TripCollection) -> Self {
        Self { connection in
            try connection.fetchScalar(Int.self, "SELECT trip_count FROM TripCollectionCount WHERE collection = ?",
                                       [collection]) ?? 0
        }
    }
}

extension WishlistQuery where Value == Trip? {
    public static func trip(id: Int64) -> Self {
        Self { connection in
            // Kept until the trip itself changes: another trip's check-off leaves it as read.
            try connection.fetchKept(Trip.self, from: "Trip", select: Trip.selection, rowIDs: [id]).first
        }
    }
}

extension WishlistQuery where Value == Activity? {
    public static func activity(id: Int64) -> Self {
        Self { connection in
            try connection.fetchOne(Activity.self, "SELECT \(Activity.selection) FROM Activity WHERE Activity.id = ?", [id])
        }
    }
}

extension WishlistQuery where Value == [Activity] {
    /// A trip's activities in the given order, kept by row: a check-off in another trip changes
    /// none of them, nor (unless sorted by it) what the list of ids reads.
    public static func activities(tripID: Int64, sortedBy order: ActivitySortOrder) -> Self {
        Self { connection in
            try connection.fetchKept(Activity.self, from: "Activity", select: Activity.selection, idsFrom: """
                SELECT Activity.id FROM Activity WHERE Activity.trip_id = ? ORDER BY \(order.orderByClause)
                """, [tripID])
        }
    }
}

extension WishlistQuery where Value == [Goal] {
    /// Achieved goals, the most recently achieved first.
    public static var achievedGoals: Self {
        Self { connection in
            try connection.fetchAll(Goal.self, "SELECT * FROM Goal WHERE is_achieved ORDER BY date_achieved DESC, sort_order")
        }
    }

    /// Goals still to reach, in display order.
    public static var upcomingGoals: Self {
        Self { connection in
            try connection.fetchAll(Goal.self, "SELECT * FROM Goal WHERE NOT is_achieved ORDER BY sort_order")
        }
    }
}

extension WishlistQuery where Value == ActivitySortOrder {
    /// The persisted activity order; the default (title) until the user picks another.
    public static var activitySortOrder: Self {
        Self { connection in
            try Preferences.value(.activitySortOrder, on: connection).flatMap(ActivitySortOrder.init(rawValue:)) ?? .default
        }
    }
}
