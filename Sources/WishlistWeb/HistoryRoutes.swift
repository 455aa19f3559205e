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
        try Self.refuseUnknownCursor(filter.after, in: app.store.database)
        return try .json(HistoryPageJSON(try filter.page(from: app.store.database, after: filter.after, limit: limit)))
    }

    func stream(_ request: Request) throws -> Response {
        let filter = try HistoryFilter(request, entities: app.store.database.historyEntities)
        let after = try request.headers["Last-Event-ID"].map { try HistoryFilter.cursor($0, name: "Last-Event-ID") } ?? filter.after
        try Self.refuseUnknownCursor(after, in: app.store.database)
        let stream = EventStream()
        stream.send(ServerSentEvent(event: "ready", data: "", retry: LiveUpdates.retryMilliseconds))
        // A stream opened with a token ends when the token is revoked (here or by `wishlist token
        // revoke`): checked before each page it sends, and a change to the tokens wakes it.
        let store = app.store, tokenName = request.bearerTokenName
        let isAllowed: @Sendable () -> Bool = {
            tokenName.map { name in (try? store.fetch(WishlistStore.apiTokenExists(name: name))) ?? false } ?? true
        }
        let pump = HistoryPump(database: app.store.database, filter: filter, after: after, stream: stream, isAllowed: isAllowed)
        let observer = try HistoryObserver(database: app.store.database, authors: filter.authors, entities: filter.entities)
        // The observer only says "something matching was committed"; the pump fetches what.
        let subscription = observer.subscribe { _, _ in pump.sendNewChanges() }
        pump.sendNewChanges()
        let token = try tokenName.map { name in
            let valid = try app.store.observe(WishlistStore.apiTokenExists(name: name))
            return (valid, valid.subscribe { _, _ in pump.sendNewChanges() })
        }
        stream.onClose {
            withExtendedLifetime((observer, token?.0)) {
                subscription.cancel()
                token?.1.cancel()
            }
        }
        return .eventStream(stream)
    }

    /// A cursor beyond the newest token, or one a restore from an older backup took back
    /// (`Database.historyHolds`), comes from another history: answering "nothing new" (or only
    /// what came after) would hide that the client holds changes that are gone. It is told to
    /// start again (docs/SYNC.md: compare everything, then follow the history from `newestToken`).
    static func refuseUnknownCursor(_ cursor: HistoryCursor, in database: Database) throws {
        guard try !database.historyHolds(cursor) else { return }
        throw HTTPError(.conflict, "History token \(cursor.token) is not one this history can go on from: it is newer than "
                        + "the newest, \(try database.latestHistoryToken()), or the database was restored from an older backup "
                        + "since. Compare everything again, then follow the history from its newest token.")
    }
}

/// The `after`, `authors` (only these) or `excludeAuthors` (all but these) and `entities`
/// parameters, checked: a bad value is a 400 with a message.
struct HistoryFilter: Sendable {
    let after: HistoryCursor
    let authors: AuthorFilter
    let entities: Set<String>?

    /// `known` are the entities the history records (`Database.historyEntities`).
    init(_ request: Request, entities known: Set<String>) throws {
        after = try request.query["after"].map { try Self.cursor($0, name: "after") } ?? HistoryCursor(token: 0)
        let only = try Self.authorList(request, "authors"), excluded = try Self.authorList(request, "excludeAuthors")
        switch (only, excluded) {
        case (let only?, nil): authors = .only(only)
        case (nil, let excluded?): authors = .excluding(excluded)
        case (nil, nil): authors = .any
        case (_?, _?): throw HTTPError(.badRequest, "Give authors or excludeAuthors, not both.")
        }
        entities = try Self.list(request.query["entities"], name: "entities") { entity in
            guard known.contains(entity) else {
                throw HTTPError(.badRequest, "Unknown entity “\(entity)”. Use any of: \(known.sorted().joined(separator: ", ")).")
            }
        }
    }

    func page(from database: Database, after cursor: HistoryCursor, limit: Int) throws -> HistoryPage {
        try database.historyPage(after: cursor, authors: authors, entities: entities, limit: limit)
    }

    static func cursor(_ text: String, name: String) throws -> HistoryCursor {
        guard let cursor = HistoryCursor(text) else {
            throw HTTPError(.badRequest, "\(name) must be a history cursor: a token (a whole number from 0, the beginning) "
                            + "or TOKEN:CHANGE as a page or event gave it.")
        }
        return cursor
    }

    /// Authors are "app", "seed", "import" and `token:NAME` for each API token's writes.
    private static func authorList(_ request: Request, _ name: String) throws -> Set<String>? {
        let authors = try list(request.query[name], name: name) { author in
            guard author.count <= 64, author.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_:".contains($0)) }) else {
                throw HTTPError(.badRequest, "Author “\(author)” is not a name of letters, digits, -, _ and : (at most 64).")
            }
        }
        if let authors, authors.count > HistoryRoutes.maxAuthors {
            throw HTTPError(.badRequest, "Name at most \(HistoryRoutes.maxAuthors) authors.")
        }
        return authors
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

/// Sends one stream the changes it has not had yet, in order, a page at a time; a transaction
/// bigger than a page goes as several events. Called at open and on every matching commit; the
/// lock keeps two calls from sending the same changes twice.
private final class HistoryPump: Sendable {
    private let database: Database
    private let filter: HistoryFilter
    private let stream: EventStream
    private let cursor: Mutex<HistoryCursor>
    /// False once the stream may send no more (its token was revoked): it is closed instead.
    private let isAllowed: @Sendable () -> Bool

    init(database: Database, filter: HistoryFilter, after: HistoryCursor, stream: EventStream,
         isAllowed: @escaping @Sendable () -> Bool) {
        self.database = database
        self.filter = filter
        self.stream = stream
        self.isAllowed = isAllowed
        cursor = Mutex(after)
    }

    func sendNewChanges() {
        cursor.withLock { cursor in
            // Pages are queued only while the client keeps up (half the buffer free, a page is far
            // smaller), so a reader catching up on a huge import is paced, never dropped for its size;
            // one that stops reading still overflows its buffer and comes back with Last-Event-ID.
            while !stream.isClosed, stream.pendingByteCount < stream.maxPendingBytes / 2 {
                guard isAllowed() else {
                    stream.close()
                    return
                }
                guard let page = try? filter.page(from: database, after: cursor, limit: HistoryRoutes.maxPageSize) else { return }
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                for piece in page.pieces {
                    guard let data = try? String(decoding: encoder.encode(HistoryTransactionJSON(piece)), as: UTF8.self)
                    else { continue }
                    stream.send(ServerSentEvent(id: piece.cursor.description, event: "transaction", data: data))
                }
                cursor = page.cursor
                if !page.hasMore { return }
            }
            if !stream.isClosed { stream.whenDrained { [self] in sendNewChanges() } }
        }
    }
}

// MARK: JSON shapes (stable field names for scripts)

struct HistoryPageJSON: Encodable {
    let transactions: [HistoryTransactionJSON]
    /// Pass as `after` next time: everything matching up to it has been returned.
    let cursor: String
    /// Every matching transaction up to this token has been returned whole.
    let latestToken: Int64
    /// The page stopped at its bounds: ask again with `after=cursor` at once.
    let hasMore: Bool
    /// The newest token of the whole history, matching the filter or not.
    let newestToken: Int64

    init(_ page: HistoryPage) {
        transactions = page.pieces.map(HistoryTransactionJSON.init)
        cursor = page.cursor.description
        latestToken = page.cursor.change == nil ? page.cursor.token : page.cursor.token - 1
        hasMore = page.hasMore
        newestToken = page.newestToken
    }
}

struct HistoryTransactionJSON: Encodable {
    let token: Int64
    /// ISO 8601 in UTC, with milliseconds.
    let timestamp: String
    let author: String
    let changes: [Change]
    /// More of this transaction's changes follow (on the next page, in the next event).
    let continues: Bool

    struct Change: Encodable {
        let entity: String
        let id: Int64
        let kind: String
    }

    init(_ piece: HistoryPiece) {
        let transaction = piece.transaction
        continues = piece.continues
        token = transaction.token
        timestamp = transaction.timestamp.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        author = transaction.author
        changes = transaction.changes.map { Change(entity: $0.entity, id: $0.rowID, kind: $0.kind.rawValue) }
    }
}
