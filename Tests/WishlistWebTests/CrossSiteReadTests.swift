import Foundation
import TestSupport
import Testing
@testable import WishlistWeb

/// Data other sites must not read (JSON API, history feed, live events, photos) refuses requests
/// the browser flags as cross-site and is marked same-origin; the HTML screens stay open to links.
@Suite struct CrossSiteReadTests {
    /// One address of each family of routes that are not pages; a photo of a trip without one is
    /// a 404. An export or an original photo requested from another site (an `<img>` there) wrote
    /// a zip of every photo, or showed where a photo was taken.
    static let dataTargets = ["/api/trips", "/api/history?limit=1", "/api/history/stream", "/events?topics=goals-achieved",
                              "/trips/1/photo/large", "/trips/1/thumbnail", "/trips/1/original", "/data/export",
                              "/places?q=kyoto", "/static/css/app.css", "/offline/changes?after=0",
                              "/photos/1/thumbnail", "/photos/1/original", "/api/trips/1/photos", "/api/photos/1", "/api/photos/1/original",
                              "/trips/1/calendar.ics", "/map/trips.gpx", "/collections/summerVibes/trips.kml", "/trips/1/place.geojson"]
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

    /// Every GET route the app registers is a page or refused to other sites: none is missed.
    @Test func everyRouteIsAPageOrProtected() throws {
        let harness = try AppHarness()
        defer { harness.stop() }
        let router = harness.app.makeRouter()
        let pages = router.routes.filter { $0.method == .get }.map(\.pattern).filter { router.isPage($0) }
        #expect(Set(pages) == ["/", "/goals", "/trips", "/trips/new", "/trips/:id", "/trips/:id/delete", "/activities/:id/delete",
                               "/collections/:collection", "/map", "/search", "/data", "/photos/:id", "/favicon.ico"])
        let reply = try harness.client.get("/data/export", headers: ["Sec-Fetch-Site": "cross-site"])
        #expect(reply.status == 403)
        #expect(try FileManager.default.contentsOfDirectory(atPath: harness.directory).filter { $0.hasPrefix(".export-") }.isEmpty,
                "nothing written")
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
