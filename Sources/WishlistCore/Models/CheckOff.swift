/// What checking an activity off (or on again) did: the trip it belongs to, for the page to go
/// back to, and the goals it earned, for the page to announce.
public struct CheckOff: Hashable, Sendable {
    public let tripID: Trip.ID
    public let earnedGoals: [Goal]
}
