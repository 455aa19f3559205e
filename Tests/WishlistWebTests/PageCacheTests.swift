import Foundation
import HTTPServer
import Testing
import TestSupport
@testable import WishlistCore
@testable import WishlistWeb

/// Pages are rendered once per commit and kept (`PageRenderer.cached`): every viewer must still
/// get their own CSRF token, and nobody may see a page older than the last write.
@Suite struct PageCacheTests {
    static func tokens(in html: String) -> Set<String> {
        let pattern = /name="_csrf" value="([^"]*)"|name="csrf-token" content="([^"]*)"/
        return Set(html.matches(of: pattern).map { String($0.output.1 ?? $0.output.2 ?? "") })
    }

    @Test func everyViewerGetsTheirOwnTokenInTheSameCachedPage() throws {
        let server = try AppHarness()
        defer { server.stop() }
        let client = server.client
        let first = String(repeating: "a", count: 64), second = String(repeating: "b", count: 64)
        for target in ["/", "/trips/1", "/trips/1?edit=1", "/goals", "/search?q=kyoto"] {
            let pages = try [first, second, first].map { token in
                try client.get(target, headers: ["Cookie": "\(CSRFProtection.cookieName)=\(token)"])
            }
            #expect(pages.map(\.status) == [200, 200, 200], "\(target)")
            #expect(Self.tokens(in: pages[0].text) == [first], "\(target)")
            #expect(Self.tokens(in: pages[1].text) == [second], "\(target)")
            #expect(pages[2].body == pages[0].body, "\(target): the same viewer gets the same page")

            let newcomer = try client.get(target)
            let issued = try #require(newcomer.cookie(CSRFProtection.cookieName))
            #expect(Self.tokens(in: newcomer.text) == [issued], "\(target)")
        }
        #expect(Self.tokens(in: try client.get("/trips/1?edit=1").text).count == 1)
    }

    @Test func aChangeShowsOnTheNextPageAfterTheWriteAnswered() throws {
        let server = try AppHarness()
        defer { server.stop() }
        let client = server.client
        let token = String(repeating: "c", count: 64)
        let cookie = ["Cookie": "\(CSRFProtection.cookieName)=\(token)"]
        let before = try client.get("/trips/1", headers: cookie)
        #expect(try client.get("/trips/1", headers: cookie).body == before.body)
        #expect(!before.text.contains("Cached no more"))
        let jsonBefore = try client.get("/api/trips/1")
        #expect(try client.get("/api/trips/1").body == jsonBefore.body)
        #expect(!jsonBefore.text.contains("Cached no more"))

        let added = try client.post("/trips/1/activities", form: [("name", "Cached no more")], token: token)
        #expect(added.status == 303)
        #expect(try client.get("/trips/1", headers: cookie).text.contains("Cached no more"))
        #expect(try client.get("/search?q=%22cached+no+more%22", headers: cookie).text.contains("<mark>Cached no more</mark>"))
        #expect(try client.get("/api/trips/1").text.contains("Cached no more"))
    }

    @Test func aChangeByAnotherProcessShowsOnceTheWatcherSeesIt() throws {
        let server = try LiveServer(watchExternalChanges: true)
        defer { server.stop() }
        let client = Endpoint(port: server.port)
        #expect(!(try client.get("/trips/1").text.contains("Added elsewhere")))
        // A second store on the same file stands in for `wishlist import` or another process.
        let otherProcess = try WishlistStore(path: server.databasePath)
        _ = try otherProcess.addActivity(tripID: 1, name: "Added elsewhere")
        otherProcess.close()
        #expect(try waitUntil { try client.get("/trips/1").text.contains("Added elsewhere") })
    }
}
