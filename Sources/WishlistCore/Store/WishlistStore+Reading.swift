/// Shorthands for the queries each screen reads once.
extension WishlistStore {
    public func recentTrips(limit: Int = 5, offset: Int = 0) throws -> [Trip] {
        try fetch(.recentTrips(limit: limit, offset: offset))
    }

    public func trips(in collection: TripCollection, limit: Int = 100, offset: Int = 0) throws -> [Trip] {
        try fetch(.trips(in: collection, limit: limit, offset: offset))
    }

    public func tripCount(in collection: TripCollection) throws -> Int {
        try fetch(.tripCount(in: collection))
    }

    public func trip(id: Int64) throws -> Trip? {
        try fetch(.trip(id: id))
    }

    public func activity(id: Int64) throws -> Activity? {
        try fetch(.activity(id: id))
    }

    public func activities(tripID: Int64, sortedBy order: ActivitySortOrder) throws -> [Activity] {
        try fetch(.activities(tripID: tripID, sortedBy: order))
    }

    public func achievedGoals() throws -> [Goal] {
        try fetch(.achievedGoals)
    }

    public func upcomingGoals() throws -> [Goal] {
        try fetch(.upcomingGoals)
    }

    public func activitySortOrder() throws -> ActivitySortOrder {
        try fetch(.activitySortOrder)
    }

    public func search(_ text: String, trips: Range<Int> = 0..<50, activities: Range<Int> = 0..<100) throws -> SearchResults {
        try fetch(.search(text, trips: trips, activities: activities))
    }
}
