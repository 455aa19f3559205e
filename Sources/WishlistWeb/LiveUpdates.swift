import Foundation
import HTTPServer
import Mustache
import Persistence
import Synchronization
import WishlistCore

/// Topic names pages subscribe to. Each names the element its fragment replaces.
enum LiveTopicName {
    static let carousel = "carousel"
    static let achievedGoals = "goals-achieved"
    static let upcomingGoals = "goals-upcoming"

    static func collection(_ collection: TripCollection) -> String {
        "collection-\(collection.rawValue)"
    }

    static func trip(_ id: Int64, editing: Bool) -> [String] {
        ["trip-header.\(id)", "\(editing ? "activity-list-edit" : "activity-list").\(id)"]
    }
}

/// The live-update hub: one SSE stream per browser tab (`/events?topics=…`), each topic backed
/// by a `ResultsObserver`. A commit re-runs only the queries whose region (the tables their SQL
/// read) it touched; a topic
/// whose result really changed is rendered once and the fragment goes to all its subscribers.
final class LiveUpdates: Sendable {
    static let maxTopicsPerStream = 16
    static let retryMilliseconds = 2_000

    private let store: WishlistStore
    private let pages: PageRenderer
    private let topics = Mutex<[String: TopicState]>([:])

    private struct TopicState {
        let feed: any LiveFeed
        var streams: [ObjectIdentifier: EventStream]
    }

    init(store: WishlistStore, pages: PageRenderer) throws {
        self.store = store
        self.pages = pages
    }

    func register(on router: inout Router) {
        router.get("/events") { request in try self.openStream(request) }
    }

    /// Subscribes a new stream to the requested topics. A reconnecting browser sends
    /// `Last-Event-ID` (a history token); a fresh page sends `since` (the token it was rendered
    /// at). Either way, every topic that changed after that token is sent at once.
    func openStream(_ request: Request) throws -> Response {
        let names = (request.query["topics"] ?? "").split(separator: " ").map(String.init)
        guard !names.isEmpty, names.count <= Self.maxTopicsPerStream else {
            throw HTTPError(.badRequest, "Name between 1 and \(Self.maxTopicsPerStream) topics, separated by spaces.")
        }
        let definitions = try names.map { name in
            guard let definition = TopicDefinition(name: name) else {
                throw HTTPError(.badRequest, "Unknown live topic “\(name)”.")
            }
            return definition
        }
        let stream = EventStream()
        stream.send(ServerSentEvent(event: "ready", data: "", retry: Self.retryMilliseconds))
        let since = (request.headers["Last-Event-ID"] ?? request.query["since"]).flatMap(Int64.init)
        let topicNames = definitions.map(\.name)
        do {
            for definition in definitions {
                let feed = try subscribe(stream, to: definition)
                if let since, try store.database.hasChanges(in: feed.region, after: since) {
                    send(try feed.currentFragment(), token: try store.database.latestHistoryToken(), to: [stream])
                }
            }
        } catch {
            // The stream never reaches a client, so it will never close: free its topics now.
            unsubscribe(stream, from: topicNames)
            throw error
        }
        stream.onClose { [weak self] in self?.unsubscribe(stream, from: topicNames) }
        return .eventStream(stream)
    }

    /// Call before reading a page's data: the token goes into the page, its script passes it
    /// back as `since`, and whatever changed in between is sent as soon as the stream opens.
    func subscription(_ topics: [String]) -> LiveSubscription {
        LiveSubscription(topics: topics, since: (try? store.database.latestHistoryToken()) ?? 0)
    }

    func stop() {
        let states = topics.withLock { topics in
            defer { topics.removeAll() }
            return Array(topics.values)
        }
        for state in states {
            state.feed.cancel()
            state.streams.values.forEach { $0.close() }
        }
    }

    var subscriberCount: Int {
        topics.withLock { $0.values.reduce(0) { $0 + $1.streams.count } }
    }

    // MARK: Subscriptions

    private func subscribe(_ stream: EventStream, to definition: TopicDefinition) throws -> any LiveFeed {
        if let feed = topics.withLock({ topics -> (any LiveFeed)? in
            topics[definition.name]?.streams[ObjectIdentifier(stream)] = stream
            return topics[definition.name]?.feed
        }) {
            return feed
        }
        // Made outside the lock: starting a feed runs its query.
        let feed = try makeFeed(definition)
        let (winner, loser) = topics.withLock { topics -> (any LiveFeed, (any LiveFeed)?) in
            if let existing = topics[definition.name] {
                topics[definition.name]?.streams[ObjectIdentifier(stream)] = stream
                return (existing.feed, feed)
            }
            topics[definition.name] = TopicState(feed: feed, streams: [ObjectIdentifier(stream): stream])
            return (feed, nil)
        }
        loser?.cancel()
        return winner
    }

    private func unsubscribe(_ stream: EventStream, from names: [String]) {
        let emptied = topics.withLock { topics -> [any LiveFeed] in
            names.compactMap { name in
                topics[name]?.streams[ObjectIdentifier(stream)] = nil
                guard let state = topics[name], state.streams.isEmpty else { return nil }
                topics[name] = nil
                return state.feed
            }
        }
        emptied.forEach { $0.cancel() }
    }

    private func broadcast(_ fragment: Fragment, token: Int64, topic: String) {
        let streams = topics.withLock { topics in topics[topic].map { Array($0.streams.values) } ?? [] }
        send(fragment, token: token, to: streams)
    }

    private func send(_ fragment: Fragment, token: Int64, to streams: [EventStream]) {
        guard let data = try? String(decoding: JSONEncoder().encode(fragment), as: UTF8.self) else { return }
        EventStream.broadcast(ServerSentEvent(id: String(token), event: "fragment", data: data), to: streams)
    }

    // MARK: Feeds

    private func makeFeed(_ definition: TopicDefinition) throws -> any LiveFeed {
        let name = definition.name
        let onChange: @Sendable (Fragment, Int64) -> Void = { [weak self] fragment, token in
            self?.broadcast(fragment, token: token, topic: name)
        }
        let pages = self.pages
        func feed<Value: Equatable>(_ query: WishlistQuery<Value>, render: @escaping @Sendable (Value) throws -> String) throws -> any LiveFeed {
            try Feed(store.observe(query), elementID: definition.elementID, render: render, onChange: onChange)
        }
        switch definition.kind {
        case .carousel:
            return try feed(.recentTrips(limit: WishlistPage.carouselSize)) { trips in
                try pages.fragment("partials/carousel", WishlistPage.carouselContext(recent: trips))
            }
        case .collection(let collection):
            return try feed(CollectionRow.query(collection)) { row in
                try pages.fragment("partials/collection-row", WishlistPage.rowContext(collection, trips: row.trips, tripCount: row.count))
            }
        case .achievedGoals:
            return try feed(.achievedGoals) { goals in
                try pages.fragment("partials/goals-achieved", GoalsPage.achievedContext(goals))
            }
        case .upcomingGoals:
            return try feed(.upcomingGoals) { goals in
                try pages.fragment("partials/goals-upcoming", GoalsPage.upcomingContext(goals))
            }
        case .tripHeader(let id):
            return try feed(.trip(id: id)) { trip in
                // A deleted trip leaves the open page as it was; its links now lead to a 404 page.
                guard let trip else { return "" }
                return try pages.fragment("partials/trip-header", TripPage.headerContext(trip))
            }
        case .activityList(let id, let editing):
            return try feed(ActivityListState.query(tripID: id)) { state in
                guard let state else { return "" }
                return try pages.fragment("partials/activity-list",
                                          TripPage.listContext(state.trip, activities: state.activities, order: state.order, editing: editing))
            }
        }
    }
}

/// One collection row: a page of its trips and how many there are in all.
private struct CollectionRow: Equatable, Sendable {
    let trips: [Trip]
    let count: Int

    static func query(_ collection: TripCollection) -> WishlistQuery<CollectionRow> {
        let trips = WishlistQuery.trips(in: collection, limit: WishlistPage.cardsPerRow)
        let count = WishlistQuery.tripCount(in: collection)
        return WishlistQuery { db in
            CollectionRow(trips: try trips.fetch(db), count: try count.fetch(db))
        }
    }
}

/// A trip's checklist as its viewers see it: in the remembered sort order.
private struct ActivityListState: Equatable, Sendable {
    let trip: Trip
    let order: ActivitySortOrder
    let activities: [Activity]

    static func query(tripID: Int64) -> WishlistQuery<ActivityListState?> {
        let trip = WishlistQuery.trip(id: tripID)
        let order = WishlistQuery.activitySortOrder
        return WishlistQuery { db in
            guard let trip = try trip.fetch(db) else { return nil }
            let order = try order.fetch(db)
            return ActivityListState(trip: trip, order: order,
                                     activities: try WishlistQuery.activities(tripID: tripID, sortedBy: order).fetch(db))
        }
    }
}

/// The topics a page shows and the history token its data is at least as new as.
struct LiveSubscription {
    let topics: [String]
    let since: Int64
}

/// What a browser receives: the element to replace and its new HTML.
struct Fragment: Encodable, Sendable {
    let target: String
    let html: String
}

/// A parsed topic name.
struct TopicDefinition {
    enum Kind {
        case carousel, achievedGoals, upcomingGoals
        case collection(TripCollection)
        case tripHeader(Int64)
        case activityList(Int64, editing: Bool)
    }

    let name: String
    let kind: Kind

    init?(name: String) {
        self.name = name
        switch name {
        case LiveTopicName.carousel: kind = .carousel
        case LiveTopicName.achievedGoals: kind = .achievedGoals
        case LiveTopicName.upcomingGoals: kind = .upcomingGoals
        default:
            if let collection = TripCollection.allCases.first(where: { LiveTopicName.collection($0) == name }) {
                kind = .collection(collection)
                return
            }
            let parts = name.split(separator: ".")
            guard parts.count == 2, let id = Int64(parts[1]), id > 0 else { return nil }
            switch parts[0] {
            case "trip-header": kind = .tripHeader(id)
            case "activity-list": kind = .activityList(id, editing: false)
            case "activity-list-edit": kind = .activityList(id, editing: true)
            default: return nil
            }
        }
    }

    /// The id of the element the fragment replaces.
    var elementID: String {
        switch kind {
        case .carousel, .achievedGoals, .upcomingGoals, .collection: name
        case .tripHeader: "trip-header"
        case .activityList: "activity-list"
        }
    }
}

/// A type-erased topic feed, so topics of different value types share one table.
protocol LiveFeed: AnyObject, Sendable {
    /// What the feed's query read last: a topic changed since a token when this region did.
    var region: DatabaseRegion { get }
    func currentFragment() throws -> Fragment
    func cancel()
}

/// A `ResultsObserver` plus the partial that renders its value: rendered once per change.
private final class Feed<Value: Equatable & Sendable>: LiveFeed {
    private let observer: ResultsObserver<Value>
    private let render: @Sendable (Value) throws -> String
    private let elementID: String
    private let subscription: ObservationCancellable

    init(_ observer: ResultsObserver<Value>, elementID: String, render: @escaping @Sendable (Value) throws -> String,
         onChange: @escaping @Sendable (Fragment, Int64) -> Void) {
        self.observer = observer
        self.render = render
        self.elementID = elementID
        subscription = observer.subscribe { value, token in
            guard let html = try? render(value), !html.isEmpty else { return }
            onChange(Fragment(target: elementID, html: html), token)
        }
    }

    var region: DatabaseRegion { observer.region }

    func currentFragment() throws -> Fragment {
        Fragment(target: elementID, html: try render(observer.value))
    }

    func cancel() {
        subscription.cancel()
    }
}
