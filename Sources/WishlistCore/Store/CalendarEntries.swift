import Persistence

/// A trip as a calendar shows it: its dates and place, its checklist in the page's order, and when
/// each last changed in the history, so a subscribed calendar updates its copy (`SEQUENCE`,
/// `LAST-MODIFIED`) instead of adding another.
public struct CalendarEntry: Sendable, Hashable {
    public let trip: Trip
    public let activities: [Activity]
    /// The newest change of the trip or of one of its activities: a check-off or a rename shows
    /// in the event's description. A deleted activity changed its trip's counts, so it counts too.
    public let revision: RowRevision?
    public let activityRevisions: [Activity.ID: RowRevision]
}

extension WishlistQuery where Value == [CalendarEntry] {
    /// The trips of `scope` with dates after `afterID`, by id, at most `limit` (a trip that does
    /// not exist is none, so a feed of a deleted trip is empty): a feed reads every trip in such parts, so none holds more than one part in memory
    /// or a connection while the last part is sent. Plain reads, not the pages' kept rows: a whole
    /// feed would push every page's rows out of them.
    public static func calendarEntries(in scope: TripScope = .all, after afterID: Trip.ID = 0, limit: Int) -> Self {
        let order = WishlistQuery<ActivitySortOrder>.activitySortOrder
        let (condition, arguments) = scope.condition
        return Self { connection in
            let trips = try connection.fetchAll(Trip.self, """
                SELECT \(Trip.selection) FROM Trip
                WHERE Trip.start_date IS NOT NULL AND Trip.id > ? AND \(condition)
                ORDER BY Trip.id LIMIT ?
                """, [afterID] + arguments + [limit])
            guard !trips.isEmpty else { return [] }
            let tripIDs = trips.map(\.id)
            let activities = try connection.fetchAll(Activity.self, """
                SELECT \(Activity.selection) FROM Activity
                WHERE Activity.trip_id IN (SELECT value FROM json_each(?))
                ORDER BY Activity.trip_id, \(try order.fetch(connection).orderByClause)
                """, [sqlJSONList(tripIDs)])
            let byTrip = Dictionary(grouping: activities, by: \.tripID)
            let tripRevisions = try connection.latestRevisions(of: "Trip", rowIDs: tripIDs)
            let activityRevisions = try connection.latestRevisions(of: "Activity", rowIDs: activities.map(\.id))
            return trips.map { trip in
                let checklist = byTrip[trip.id] ?? []
                let revisions = ([tripRevisions[trip.id]] + checklist.map { activityRevisions[$0.id] }).compactMap { $0 }
                return CalendarEntry(trip: trip, activities: checklist, revision: revisions.max { $0.token < $1.token },
                                     activityRevisions: Dictionary(uniqueKeysWithValues: checklist.compactMap { activity in
                                         activityRevisions[activity.id].map { (activity.id, $0) }
                                     }))
            }
        }
    }
}
