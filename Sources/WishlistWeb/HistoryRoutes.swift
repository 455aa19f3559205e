import Foundation
import HTTPServer
import Persistence
import Synchronization
import WishlistCore

/// The history feed for sync tools (docs/HISTORY-FEED.md): `GET /api/history` pages through the
/// committed write transactions after a token; `GET /api/history/stream` pushes them as
/// server-sent events, woken by a `HistoryObserver`, each event's id being its token.
struct HistoryRoutes {
    let app: WishlistApp
    static let defaultPageSize = 100
    static let maxPageSize = 1000
    static let maxAuthors = 16

    func register(on router: inout Router) {
        router.get("/api/history") { request in try page(request) }
        router.get("/api/history/stream") { request in try stream(request) }
    }

    func page(_ request: Request) throws -> Response {
        let filter = try HistoryFilter(request, entities: app.store.database.historyEntities)
        let limit = try APIRoutes.boundedInteger(request.query["limit"], name: "limit", default: Self.defaultPageSize,
                                                 range: 1...Self.maxPageSize)
        // The newest token is read first: every transaction up to it is then in the fetch below,
        // so a commit landing in between is never skipped by a client that continues from it.
        let newest = try app.store.database.latestHistoryToken()
        let fetched = try filter.fetch(from: app.store.database, after: filter.after, limit: limit + 1)
        let transactions = Array(fetched.prefix(limit))
        let hasMore = fetched.count > limit
        let reached = hasMore ? transactions.last!.token : max(newest, transactions.last?.token ?? filter.after)
        return try .json(HistoryPageJSON(transactions: transactions.map(HistoryTransactionJSON.init),
                                         latestToken: reached, hasMore: hasMore))
    }

    func stream(_ request: Request) throws -> Response {
        let filter = try HistoryFilter(request, entities: app.store.database.historyEntities)
        let after = try request.headers["Last-Event-ID"].map { try HistoryFilter.token($0, name: "Last-Event-ID") } ?? filter.after
        let stream = EventStream()
        stream.send(ServerSentEvent(event: "ready", data: "", retry: LiveUpdates.retryMilliseconds))
        let pump = HistoryPump(database: app.store.database, filter: filter, after: after, stream: stream)
        let observer = try HistoryObserver(database: app.store.database, authors: filter.authors, entities: filter.entities)
        // The observer only says "something matching was committed"; the pump fetches what.
        let subscription = observer.subscribe { _, _ in pump.sendNewTransactions() }
        pump.sendNewTransactions()
        stream.onClose { withExtendedLifetime(observer) { subscription.cancel() } }
        return .eventStream(stream)
    }
}

/// The `after`, `authors` and `entities` parameters, checked: a bad value is a 400 with a message.
struct HistoryFilter: Sendable {
    let after: Int64
    let authors: Set<String>?
    let entities: Set<String>?

    /// `known` are the entities the history records (`Database.historyEntities`).
    init(_ request: Request, entities known: Set<String>) throws {
        after = try request.query["after"].map { try Self.token($0, name: "after") } ?? 0
        authors = try Self.list(request.query["authors"], name: "authors") { author in
            guard author.count <= 64, author.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
                throw HTTPError(.badRequest, "Author “\(author)” is not a name of letters, digits, - and _ (at most 64).")
            }
        }
        if let authors, authors.count > HistoryRoutes.maxAuthors {
            throw HTTPError(.badRequest, "Name at most \(HistoryRoutes.maxAuthors) authors.")
        }
        entities = try Self.list(request.query["entities"], name: "entities") { entity in
            guard known.contains(entity) else {
                throw HTTPError(.badRequest, "Unknown entity “\(entity)”. Use any of: \(known.sorted().joined(separator: ", ")).")
            }
        }
    }

    func fetch(from database: Database, after token: Int64, limit: Int) throws -> [HistoryTransaction] {
        try database.fetchHistory(after: token, authors: authors, entities: entities, limit: limit)
    }

    static func token(_ text: String, name: String) throws -> Int64 {
        guard let value = Int64(text), value >= 0 else {
            throw HTTPError(.badRequest, "\(name) must be a history token: a whole number from 0 (the beginning).")
        }
        return value
    }

    /// A comma-separated list; absent means "any", present but empty is a mistake.
    private static func list(_ text: String?, name: String, check: (String) throws -> Void) throws -> Set<String>? {
        guard let text else { return nil }
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard !items.contains(where: \.isEmpty) else {
            throw HTTPError(.badRequest, "\(name) must be a comma-separated list without empty items (leave it out to match all).")
        }
        try items.forEach(check)
        return Set(items)
    }
}

/// Sends one stream the transactions it has not had yet, in token order. Called at open and on
/// every matching commit; the lock keeps two calls from sending the same transaction twice.
private final class HistoryPump: Sendable {
    private let database: Database
    private let filter: HistoryFilter
    private let stream: EventStream
    private let lastSent: Mutex<Int64>

    init(database: Database, filter: HistoryFilter, after: Int64, stream: EventStream) {
        self.database = database
        self.filter = filter
        self.stream = stream
        lastSent = Mutex(after)
    }

    func sendNewTransactions() {
        lastSent.withLock { lastSent in
            // A client far behind is caught up page by page; one that stops reading overflows its
            // stream's buffer and is dropped, and comes back with Last-Event-ID.
            while !stream.isClosed,
                  let page = try? filter.fetch(from: database, after: lastSent, limit: HistoryRoutes.maxPageSize),
                  !page.isEmpty {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                for transaction in page {
                    guard let data = try? String(decoding: encoder.encode(HistoryTransactionJSON(transaction)), as: UTF8.self)
                    else { continue }
                    stream.send(ServerSentEvent(id: String(transaction.token), event: "transaction", data: data))
                }
                lastSent = page.last!.token
                if page.count < HistoryRoutes.maxPageSize { break }
            }
        }
    }
}

// MARK: JSON shapes (stable field names for scripts)

struct HistoryPageJSON: Encodable {
    let transactions: [HistoryTransactionJSON]
    /// Pass as `after` next time: everything matching up to it has been returned.
    let latestToken: Int64
    /// More transactions are waiting: ask again with `after=latestToken` at once.
    let hasMore: Bool
}

struct HistoryTransactionJSON: Encodable {
    let token: Int64
    /// ISO 8601 in UTC, with milliseconds.
    let timestamp: String
    let author: String
    let changes: [Change]

    struct Change: Encodable {
        let entity: String
        let id: Int64
        let kind: String
    }

    init(_ transaction: HistoryTransaction) {
        token = transaction.token
        timestamp = transaction.timestamp.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        author = transaction.author
        changes = transaction.changes.map { Change(entity: $0.entity, id: $0.rowID, kind: $0.kind.rawValue) }
    }
}
