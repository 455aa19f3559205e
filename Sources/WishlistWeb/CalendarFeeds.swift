import Calendars
import Foundation
import HTTPServer
import Synchronization
import WishlistCore

/// Subscribable calendars (`/calendar/<secret>.ics`): every trip with dates, or one trip, for a
/// calendar app that fetches them now and then. A calendar app cannot sign in or send a header,
/// so the secret in the path is the key, and this middleware sits before `PasswordProtection`.
/// It answers every path under its prefix itself and never passes a request on: a feed's secret
/// opens its feed and nothing else. Secrets are kept hashed, like API tokens; a revoked or
/// rotated one is a 404 from the next request on (each request looks its hash up), and a feed
/// being sent stops at its next part (each part looks it up again).
struct CalendarFeeds: Middleware {
    static let prefix = "/calendar/"
    /// Marks a secret as a feed's (in logs, in a secret scanner's rules).
    static let secretPrefix = "wlc_"
    /// Trips read, drawn and sent at a time: a feed of any size holds one part in memory and
    /// no database connection or thread while a slow calendar app takes it.
    static let partSize = 500

    let store: WishlistStore
    /// Feeds sent part by part at once: each holds a part in memory while its reader is slow.
    let streams = StreamBound(total: 32, perAddress: 8)

    /// The feed's path for `secret`.
    static func path(secret: String) -> String { prefix + secret + ".ics" }

    func respond(to request: Request, next: Handler) throws -> Response {
        guard request.path.hasPrefix(Self.prefix) else { return try next(request) }
        guard request.method == .get || request.method == .head else {
            throw HTTPError(.methodNotAllowed, "A calendar feed can only be read.", headers: ["Allow": "GET, HEAD"])
        }
        let file = request.path.dropFirst(Self.prefix.count)
        let secretHash = file.hasSuffix(".ics") ? BearerToken.hash(String(file.dropLast(".ics".count))) : ""
        let (feed, name, version) = try store.read { snapshot -> (CalendarFeed?, String, String) in
            guard let feed = try snapshot.fetch(WishlistStore.calendarFeed(secretHash: secretHash)) else { return (nil, "", "") }
            return (feed, try Self.name(of: feed.scope, in: snapshot), try Self.version(of: feed.scope, in: snapshot))
        }
        guard let feed else { throw Self.gone }
        // The origin is in its links.
        let origin = request.origin
        let etag = "\"\(version)-\(BearerToken.hash(origin).prefix(12))\""
        return try Response.conditional(request: request, etag: etag, cacheControl: "private, no-cache") {
            try body(of: feed, calendar: TripCalendar(name: name, origin: origin, stamp: store.clock.now()),
                     secretHash: secretHash, address: request.remoteAddress)
        }
    }

    private static let gone = HTTPError(.notFound, "There is no calendar at this address. It may have been revoked or given a new address: copy the feed’s address again from the Data page.")

    /// What the feed's `ETag` stands for: for one trip, the newest change of the trip and its
    /// activities and the checklist's order, so other trips' changes leave it alone; for more,
    /// any commit (any may change what it shows).
    private static func version(of scope: TripScope, in snapshot: WishlistSnapshot) throws -> String {
        guard case .trip = scope else { return String(try snapshot.historyToken()) }
        let revision = try snapshot.fetch(.calendarEntries(in: scope, limit: 1)).first?.revision?.token ?? 0
        return "trip-\(revision)-\(try snapshot.fetch(WishlistQuery<ActivitySortOrder>.activitySortOrder).rawValue)"
    }

    /// The calendar's name: its trip's (which the `ETag` follows), or the app's for all trips.
    private static func name(of scope: TripScope, in snapshot: WishlistSnapshot) throws -> String {
        guard case .trip(let id) = scope, let trip = try snapshot.fetch(.trip(id: id)) else { return TripCalendar.allTripsName }
        return trip.name
    }

    /// What a feed sent part by part sends next.
    private enum Step {
        case first([UInt8])
        case after(Trip.ID)
        case closing
        case done
    }

    /// The first part read now; a feed with more is sent part by part as its reader takes it,
    /// each part read only while the feed's secret still opens it.
    private func body(of feed: CalendarFeed, calendar: TripCalendar, secretHash: String, address: String) throws -> Response {
        let first = try store.fetch(.calendarEntries(in: feed.scope, limit: Self.partSize))
        let opening = calendar.opening + calendar.document(first).encodedComponents()
        var response = Response(headers: ["Content-Type": CalendarDocument.mediaType])
        guard first.count == Self.partSize, let last = first.last?.trip.id else {
            response.body = .bytes(opening + CalendarDocument.closing)
            return response
        }
        let scope = feed.scope
        let step = Mutex(Step.first(opening))
        response.body = .pulled(PulledBody(holding: try streams.claim(address: address)) { [store] in
            try step.withLock { step -> [UInt8]? in
                switch step {
                case .first(let bytes):
                    step = .after(last)
                    return bytes
                case .after(let id):
                    let part = try store.read { snapshot in
                        guard try snapshot.fetch(WishlistStore.calendarFeed(secretHash: secretHash)) != nil else { throw Self.gone }
                        return try snapshot.fetch(.calendarEntries(in: scope, after: id, limit: Self.partSize))
                    }
                    step = part.count == Self.partSize ? part.last.map { .after($0.trip.id) } ?? .closing : .closing
                    return calendar.document(part).encodedComponents()
                case .closing:
                    step = .done
                    return CalendarDocument.closing
                case .done:
                    return nil
                }
            }
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
