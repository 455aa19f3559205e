import Calendars
import Foundation
import HTTPServer
import WishlistCore

/// Subscribable calendars (`/calendar/<secret>.ics`): every trip with dates, or one trip, for a
/// calendar app that fetches them now and then. A calendar app cannot sign in or send a header,
/// so the secret in the path is the key, and this middleware sits before `PasswordProtection`.
/// It answers every path under its prefix itself and never passes a request on: a feed's secret
/// opens its feed and nothing else. Secrets are kept hashed, like API tokens; a revoked or
/// rotated one is a 404 from the next request on (each request looks its hash up).
struct CalendarFeeds: Middleware {
    static let prefix = "/calendar/"
    /// Marks a secret as a feed's (in logs, in a secret scanner's rules).
    static let secretPrefix = "wlc_"
    /// Trips read, drawn and sent at a time: a feed of any size holds one part in memory and
    /// no database connection while a slow calendar app takes it.
    static let partSize = 500

    let store: WishlistStore

    /// The feed's path for `secret`.
    static func path(secret: String) -> String { prefix + secret + ".ics" }

    func respond(to request: Request, next: Handler) throws -> Response {
        guard request.path.hasPrefix(Self.prefix) else { return try next(request) }
        guard request.method == .get || request.method == .head else {
            throw HTTPError(.methodNotAllowed, "A calendar feed can only be read.", headers: ["Allow": "GET, HEAD"])
        }
        let file = request.path.dropFirst(Self.prefix.count)
        let secretHash = file.hasSuffix(".ics") ? BearerToken.hash(String(file.dropLast(".ics".count))) : nil
        let (feed, token) = try store.read { snapshot in
            (try secretHash.flatMap { try snapshot.fetch(WishlistStore.calendarFeed(secretHash: $0)) }, try snapshot.historyToken())
        }
        guard let feed else {
            throw HTTPError(.notFound, "There is no calendar at this address. It may have been revoked or given a new address: copy the feed’s address again from the Data page.")
        }
        // Any commit may change what a feed shows; the origin is in its links.
        let origin = request.origin
        let etag = "\"\(token)-\(BearerToken.hash(origin).prefix(12))\""
        return try Response.conditional(request: request, etag: etag, cacheControl: "private, no-cache") {
            try body(of: feed, origin: origin)
        }
    }

    /// The first part read now; a feed with more is piped part by part while it is sent.
    private func body(of feed: CalendarFeed, origin: String) throws -> Response {
        let calendar = TripCalendar(origin: origin, stamp: store.clock.now())
        let first = try store.fetch(.calendarEntries(in: feed.scope, limit: Self.partSize))
        let opening = calendar.opening + calendar.document(first).encodedComponents()
        var response = Response(headers: ["Content-Type": CalendarDocument.mediaType])
        guard first.count == Self.partSize, let last = first.last?.trip.id else {
            response.body = .bytes(opening + CalendarDocument.closing)
            return response
        }
        let scope = feed.scope
        response.body = .piped(try PipedBody(name: "calendar feed \(feed.name)") { [store] descriptor in
            let output = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
            try output.write(contentsOf: opening)
            var after = last
            while true {
                let part = try store.fetch(.calendarEntries(in: scope, after: after, limit: Self.partSize))
                try output.write(contentsOf: calendar.document(part).encodedComponents())
                guard part.count == Self.partSize, let last = part.last?.trip.id else { break }
                after = last
            }
            try output.write(contentsOf: CalendarDocument.closing)
        })
        return response
    }
}

/// Making and rotating feeds' secrets: the one place a feed secret is made and its hash stored,
/// for the Data page and `wishlist feed`.
public enum CalendarFeedSecrets {
    /// Stores a new feed and returns its path (with the secret, shown once).
    public static func create(named name: String, tripID: Trip.ID?, in store: WishlistStore) throws -> String {
        let secret = try BearerToken.make(prefix: CalendarFeeds.secretPrefix)
        try store.addCalendarFeed(name: name, tripID: tripID, secretHash: BearerToken.hash(secret))
        return CalendarFeeds.path(secret: secret)
    }

    /// Gives the feed a new secret and returns its new path; the old one answers 404 at once.
    public static func rotate(named name: String, in store: WishlistStore) throws -> String {
        let secret = try BearerToken.make(prefix: CalendarFeeds.secretPrefix)
        try store.rotateCalendarFeed(name: name, secretHash: BearerToken.hash(secret))
        return CalendarFeeds.path(secret: secret)
    }
}
