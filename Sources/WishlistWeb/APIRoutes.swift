import Foundation
import HTTPServer
import WishlistCore

/// A JSON view of the same data for scripting: `/api/trips`, `/api/trips/:id`, `/api/goals`,
/// `/api/search?q=`. Errors under `/api/` are JSON too (see `PageRenderer.errorPage`).
struct APIRoutes {
    let app: WishlistApp
    static let maxPageSize = 500

    func register(on router: inout Router) {
        // Each answer depends on the URL and the database only: kept until the next commit.
        router.get("/api/trips") { request in try app.pages.cached(request) { try SharedResponse(json: trips(request)) } }
        router.get("/api/trips/:id") { request in try app.pages.cached(request) { try SharedResponse(json: trip(request)) } }
        router.get("/api/goals") { request in try app.pages.cached(request) { try SharedResponse(json: goals()) } }
        router.get("/api/search") { request in try app.pages.cached(request) { try SharedResponse(json: search(request)) } }
    }

    func trips(_ request: Request) throws -> TripList {
        let limit = try Self.boundedInteger(request.query["limit"], name: "limit", default: 100, range: 1...Self.maxPageSize)
        let offset = try Self.boundedInteger(request.query["offset"], name: "offset", default: 0, range: 0...Int.max)
        let trips: [Trip]
        if let name = request.query["collection"] {
            guard let collection = TripCollection(rawValue: name) else {
                throw HTTPError(.badRequest, "Unknown collection “\(name)”. Use one of: \(TripCollection.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            trips = try app.store.trips(in: collection, limit: limit, offset: offset)
        } else {
            trips = try app.store.recentTrips(limit: limit, offset: offset)
        }
        return TripList(trips: trips.map(TripJSON.init), limit: limit, offset: offset)
    }

    /// The trip page's checklist, from the same query: what a script reads is what the page shows.
    func trip(_ request: Request) throws -> TripDetailJSON {
        let id = try RecordID(request.parameters["id"], entity: "trip")
        guard let checklist = try app.store.fetch(ActivityListFragment(tripID: id.value).query) else {
            throw HTTPError(.notFound, "There is no trip number \(id.value).")
        }
        return TripDetailJSON(checklist)
    }

    /// The Goals screen's two fragments, read together.
    func goals() throws -> GoalsJSON {
        try app.store.read { snapshot in
            GoalsJSON(achieved: try snapshot.fetch(AchievedGoalsFragment().query).map(GoalJSON.init),
                      upcoming: try snapshot.fetch(UpcomingGoalsFragment().query).map(GoalJSON.init))
        }
    }

    func search(_ request: Request) throws -> SearchJSON {
        let query = try SearchQuery(request.query["q"])
        let results = try app.store.search(query.text, trips: Self.positions(request, "trip", defaultLimit: 50),
                                           activities: Self.positions(request, "activity", defaultLimit: 100))
        return SearchJSON(query: query.text, trips: results.trips.map(TripJSON.init),
                          activities: results.activities.map(ActivityJSON.init),
                          tripTotal: MatchTotalJSON(results.tripTotal), activityTotal: MatchTotalJSON(results.activityTotal),
                          needsLongerWord: results.needsLongerWord)
    }

    /// The positions `<name>Offset` and `<name>Limit` ask for; the offset is bounded so that
    /// adding the limit cannot overflow.
    static func positions(_ request: Request, _ name: String, defaultLimit: Int) throws -> Range<Int> {
        let limit = try boundedInteger(request.query["\(name)Limit"], name: "\(name)Limit", default: defaultLimit, range: 0...maxPageSize)
        let offset = try boundedInteger(request.query["\(name)Offset"], name: "\(name)Offset", default: 0, range: 0...Int(Int32.max))
        return offset..<(offset + limit)
    }

    /// A whole-number query parameter within `range`; a 400 with a message otherwise.
    static func boundedInteger(_ text: String?, name: String, default defaultValue: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text else { return defaultValue }
        guard let value = Int(text), range.contains(value) else {
            throw HTTPError(.badRequest, "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound).")
        }
        return value
    }
}

// MARK: JSON shapes (stable field names for scripts)

struct TripList: Encodable {
    let trips: [TripJSON]
    let limit: Int
    let offset: Int
}

struct TripJSON: Encodable {
    let id: Int64
    let name: String
    let subtitle: String?
    let collection: String
    let creationDate: Date
    let isComplete: Bool
    let activityCount: Int
    let completedActivityCount: Int
    /// The photo's content version (the same picture has the same one on every server); absent without a photo.
    let photoVersion: String?
    /// Left out, like `subtitle`, when the trip has none.
    let destination: DestinationJSON?
    /// `YYYY-MM-DD`.
    let startDate: CalendarDate?
    let endDate: CalendarDate?
    let url: String

    struct DestinationJSON: Encodable {
        let name: String
        /// Both set for a picked place, both left out for free text.
        let latitude: Double?
        let longitude: Double?
        /// The picked place's `PlaceToken`, opaque: send it back in a write to keep the place.
        let place: String?
    }

    init(_ trip: Trip) {
        id = trip.id
        name = trip.name
        subtitle = trip.subtitle
        collection = trip.collection.rawValue
        creationDate = trip.creationDate
        isComplete = trip.isComplete
        activityCount = trip.activityCount
        completedActivityCount = trip.completedActivityCount
        photoVersion = trip.photo?.version
        destination = trip.destination.map { destination in
            DestinationJSON(name: destination.name, latitude: destination.coordinate?.latitude,
                            longitude: destination.coordinate?.longitude, place: destination.place.map(PlaceToken.token(for:)))
        }
        startDate = trip.startDate
        endDate = trip.endDate
        url = "/trips/\(trip.id)"
    }
}

struct TripDetailJSON: Encodable {
    let trip: TripJSON
    let activities: [ActivityJSON]

    init(_ checklist: TripChecklist) {
        trip = TripJSON(checklist.trip)
        activities = checklist.activities.map(ActivityJSON.init)
    }
}

struct ActivityJSON: Encodable {
    let id: Int64
    let tripID: Int64
    let tripName: String?
    let name: String
    let isComplete: Bool
    let dateCreated: Date
    let dateEdited: Date

    init(_ activity: Activity) {
        self.init(activity, tripName: nil)
    }

    init(_ match: ActivityMatch) {
        self.init(match.activity, tripName: match.tripName)
    }

    private init(_ activity: Activity, tripName: String?) {
        id = activity.id
        tripID = activity.tripID
        self.tripName = tripName
        name = activity.name
        isComplete = activity.isComplete
        dateCreated = activity.dateCreated
        dateEdited = activity.dateEdited
    }
}

struct GoalsJSON: Encodable {
    let achieved: [GoalJSON]
    let upcoming: [GoalJSON]
}

struct GoalJSON: Encodable {
    let id: Int64
    let name: String
    let target: Int
    let completedCount: Int
    let isAchieved: Bool
    let dateAchieved: Date?
    let badge: String

    init(_ goal: Goal) {
        id = goal.id
        name = goal.name
        target = goal.target
        completedCount = goal.completedCount
        isAchieved = goal.isAchieved
        dateAchieved = goal.dateAchieved
        badge = goal.badge
    }
}

struct SearchJSON: Encodable {
    let query: String
    let trips: [TripJSON]
    let activities: [ActivityJSON]
    let tripTotal: MatchTotalJSON
    let activityTotal: MatchTotalJSON
    /// Only words of one letter were given: nothing was searched.
    let needsLongerWord: Bool
}

/// How many match in all: `count` is exact unless `isAtLeast` ("200 or more"); `hasMore` says
/// whether a larger offset finds more.
struct MatchTotalJSON: Encodable {
    let count: Int
    let isAtLeast: Bool
    let hasMore: Bool

    init(_ total: MatchTotal) {
        (count, isAtLeast, hasMore) = (total.count, total.isAtLeast, total.hasMore)
    }
}
