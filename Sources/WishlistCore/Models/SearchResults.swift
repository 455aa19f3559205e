/// What the search screen shows. With an empty query it holds the most recent trips and
/// `isRecent` is true.
public struct SearchResults: Hashable, Sendable {
    public var trips: [Trip]
    public var activities: [ActivityMatch]
    public var isRecent: Bool
}

/// An activity found by search, with the trip it belongs to.
public struct ActivityMatch: Hashable, Sendable {
    public var activity: Activity
    public var tripID: Int64 { activity.tripID }
    public var tripName: String
}
