import Foundation
import HTTPServer
import Persistence
import Synchronization
import WishlistCore

/// The live-update hub: one SSE stream per browser (`/events?topics=…`; `live-worker.js` holds it
/// for all the browser's tabs, or each visible tab its own where there is no SharedWorker), each topic backed
/// by one `ResultsObserver` of its fragment's query, shared by every stream that follows it. A
/// commit re-runs only the queries whose region (the tables their SQL reads) it touched; a
/// fragment whose value really changed is rendered once and goes to all its subscribers.
final class LiveUpdates: Sendable {
    /// The topics of every tab of one browser share its stream: room for a few dozen tabs, while
    /// each stream's subscriptions (one observer per distinct topic, shared) stay bounded.
    static let maxTopicsPerStream = 64
    static let retryMilliseconds = 2_000

    private let store: WishlistStore
    private let pages: PageRenderer
    private let topics = Mutex<[LiveTopic: TopicState]>([:])

    private struct TopicState {
        let feed: any LiveFeed
        var streams: [ObjectIdentifier: EventStream]
    }

    init(store: WishlistStore, pages: PageRenderer) {
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
        let requested = try names.map { name in
            guard let topic = LiveTopic(id: name) else { throw HTTPError(.badRequest, "Unknown live topic “\(name)”.") }
            return topic
        }
        let stream = EventStream()
        stream.send(ServerSentEvent(event: "ready", data: "", retry: Self.retryMilliseconds))
        let since = (request.headers["Last-Event-ID"] ?? request.query["since"]).flatMap(Int64.init)
        do {
            for topic in requested {
                let feed = try subscribe(stream, to: topic)
                if let since, let current = try feed.fragment(changedAfter: since) {
                    send(current.fragment, token: current.token, to: [stream])
                }
            }
        } catch {
            // The stream never reaches a client, so it will never close: free its topics now.
            unsubscribe(stream, from: requested)
            throw error
        }
        stream.onClose { [weak self] in self?.unsubscribe(stream, from: requested) }
        return .eventStream(stream)
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

    private func subscribe(_ stream: EventStream, to topic: LiveTopic) throws -> any LiveFeed {
        if let feed = topics.withLock({ topics -> (any LiveFeed)? in
            topics[topic]?.streams[ObjectIdentifier(stream)] = stream
            return topics[topic]?.feed
        }) {
            return feed
        }
        // Made outside the lock: starting a feed runs its query.
        let feed = try makeFeed(topic.fragment) { [weak self] fragment, token in
            self?.broadcast(fragment, token: token, topic: topic)
        }
        let (winner, loser) = topics.withLock { topics -> (any LiveFeed, (any LiveFeed)?) in
            if let existing = topics[topic] {
                topics[topic]?.streams[ObjectIdentifier(stream)] = stream
                return (existing.feed, feed)
            }
            topics[topic] = TopicState(feed: feed, streams: [ObjectIdentifier(stream): stream])
            return (feed, nil)
        }
        loser?.cancel()
        return winner
    }

    private func unsubscribe(_ stream: EventStream, from requested: [LiveTopic]) {
        let emptied = topics.withLock { topics -> [any LiveFeed] in
            requested.compactMap { topic in
                topics[topic]?.streams[ObjectIdentifier(stream)] = nil
                guard let state = topics[topic], state.streams.isEmpty else { return nil }
                topics[topic] = nil
                return state.feed
            }
        }
        emptied.forEach { $0.cancel() }
    }

    private func makeFeed(_ fragment: some Fragment, onChange: @escaping @Sendable (LiveFragment, Int64) -> Void) throws -> any LiveFeed {
        try Feed(store: store, pages: pages, fragment: fragment, onChange: onChange)
    }

    private func broadcast(_ fragment: LiveFragment, token: Int64, topic: LiveTopic) {
        let streams = topics.withLock { topics in topics[topic].map { Array($0.streams.values) } ?? [] }
        send(fragment, token: token, to: streams)
    }

    private func send(_ fragment: LiveFragment, token: Int64, to streams: [EventStream]) {
        guard let data = try? String(decoding: JSONEncoder().encode(fragment), as: UTF8.self) else { return }
        EventStream.broadcast(ServerSentEvent(id: String(token), event: "fragment", data: data), to: streams)
    }
}

/// What a browser receives: the topic it follows (one stream serves every tab of a browser, each
/// showing topics of its own), the element to replace and its new HTML.
struct LiveFragment: Encodable, Sendable {
    let topic: String
    let target: String
    let html: String
}

/// A type-erased topic feed, so topics of different value types share one table.
protocol LiveFeed: AnyObject, Sendable {
    /// The fragment now, with the token it is current at, when its tables changed after `token`.
    func fragment(changedAfter token: Int64) throws -> (fragment: LiveFragment, token: Int64)?
    func cancel()
}

/// A `ResultsObserver` of a fragment's query plus its drawing: drawn once per change, into the
/// `TopicStore` the next page reads too.
private final class Feed<F: Fragment>: LiveFeed {
    private let store: WishlistStore
    private let pages: PageRenderer
    private let fragment: F
    private let observer: ResultsObserver<F.Value>
    private let subscription: ObservationCancellable

    init(store: WishlistStore, pages: PageRenderer, fragment: F,
         onChange: @escaping @Sendable (LiveFragment, Int64) -> Void) throws {
        self.store = store
        self.pages = pages
        self.fragment = fragment
        observer = try store.observe(fragment.query)
        subscription = observer.subscribe { read, token in
            // A deleted record leaves the open page as it was; its links now lead to a 404 page.
            guard let live = try? pages.liveFragment(FragmentRead(fragment: fragment, read: read)) else { return }
            onChange(live, token)
        }
    }

    func fragment(changedAfter token: Int64) throws -> (fragment: LiveFragment, token: Int64)? {
        guard try store.database.hasChanges(in: observer.region, after: token) else { return nil }
        let (shown, current) = try store.read { snapshot in (try fragment.read(in: snapshot), try snapshot.historyToken()) }
        guard let live = try pages.liveFragment(shown) else { return nil }
        return (live, current)
    }

    func cancel() {
        subscription.cancel()
    }
}
