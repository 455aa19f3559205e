import Foundation
import Glibc
import HTTPServer
import Testing
import TestSupport
@testable import WishlistCore
@testable import WishlistWeb

/// What the security tests ask of the live app.
extension AppHarness {
    /// The limit the security tests upload against: small, so an over-limit body is cheap to send.
    static let securityPhotoLimit = 1024 * 1024

    /// Every route the router serves, each with a concrete address (parameters filled with
    /// records that exist, the query a route needs to do real work).
    var routes: [(method: HTTPMethod, pattern: String, target: String)] {
        app.makeRouter().routes.map { route in
            (route.method, route.pattern, Self.target(for: route.pattern))
        }
    }

    static func target(for pattern: String) -> String {
        let path = pattern.split(separator: "/").map { segment in
            segment.hasPrefix(":") ? (sampleParameters[String(segment.dropFirst())] ?? "1") : String(segment)
        }.joined(separator: "/")
        return "/" + path + (sampleQueries[pattern].map { "?" + $0 } ?? "")
    }

    static let sampleParameters = ["collection": TripCollection.summerVibes.rawValue]
    static let sampleQueries = ["/events": "topics=\(LiveTopic.achievedGoals.id)", "/search": "q=a", "/api/search": "q=a"]

    /// What a change anywhere would move: the newest history token (every write transaction
    /// records one) and the JSON of trips, goals and a trip's activities.
    func snapshot() throws -> String {
        let token = try store.database.latestHistoryToken()
        let bodies = try ["/api/trips?limit=500", "/api/goals", "/api/trips/1"].map { try client.get($0).text }
        return "\(token)\n" + bodies.joined(separator: "\n")
    }

    /// A fresh CSRF token with its cookie, as a page visit hands it out.
    func csrfToken() throws -> String {
        let reply = try client.get("/")
        let cookie = try #require(reply.cookie(CSRFProtection.cookieName))
        return cookie
    }
}
