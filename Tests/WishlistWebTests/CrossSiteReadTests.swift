import Foundation
import TestSupport
import Testing
@testable import WishlistWeb

/// Data other sites must not read (JSON API, history feed, live events, photos) refuses requests
/// the browser flags as cross-site and is marked same-origin; the HTML screens stay open to links.
@Suite struct CrossSiteReadTests {
    /// One address of each family `WishlistApp.dataPaths` protects; a photo of a trip without one is a 404.
    static let dataTargets = ["/api/trips", "/api/history?limit=1", "/api/history/stream", "/events?topics=goals-achieved",
                              "/trips/1/photo", "/trips/1/thumbnail"]
    static let streams: Set = ["/api/history/stream", "/events?topics=goals-achieved"]

    @Test func dataRefusesOtherSites() throws {
        let server = try LiveServer()
        defer { server.stop() }
        for target in Self.dataTargets {
            for site in ["cross-site", "same-site"] {
                let reply = try SocketClient.get(target, port: server.port, headers: ["Sec-Fetch-Site": site])
                #expect(reply.status == 403, "\(target) \(site)")
                #expect(reply.header("Cross-Origin-Resource-Policy") == "same-origin", "\(target) \(site)")
            }
        }
    }

    @Test func dataAnswersItsOwnPagesAndScriptsMarkedSameOrigin() throws {
        let server = try LiveServer()
        defer { server.stop() }
        for target in Self.dataTargets {
            for headers in [["Sec-Fetch-Site": "same-origin"], [:]] {
                let policy: String?
                if Self.streams.contains(target) {
                    let stream = try SocketClient.openEvents(target, port: server.port, headers: headers)
                    policy = stream.streamHead?.header("Cross-Origin-Resource-Policy")
                    stream.disconnect()
                } else {
                    let reply = try SocketClient.get(target, port: server.port, headers: headers)
                    #expect(reply.status != 403, "\(target) \(headers)")
                    policy = reply.header("Cross-Origin-Resource-Policy")
                }
                #expect(policy == "same-origin", "\(target) \(headers)")
            }
        }
    }

    /// A link from another site or a bookmark (`none`) still opens the screens.
    @Test func screensOpenFromAnywhere() throws {
        let server = try LiveServer()
        defer { server.stop() }
        for target in ["/", "/goals", "/trips/1", "/search?q=surf"] {
            for site in ["cross-site", "same-site", "none"] {
                let reply = try SocketClient.get(target, port: server.port, headers: ["Sec-Fetch-Site": site, "Sec-Fetch-Mode": "navigate"])
                #expect(reply.status == 200, "\(target) \(site)")
            }
        }
    }
}
