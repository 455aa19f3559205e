import Testing
import TestSupport
@testable import WishlistWeb

/// The service worker is served from the root, so that it may keep every page, and names the
/// static files of this version: a new version of them is a new worker.
@Suite struct ServiceWorkerTests {
    @Test func theWorkerIsServedAtTheRootWithThisVersionsStaticFiles() throws {
        let fixture = try AppHarness()
        let reply = try fixture.client.get("/service-worker.js")
        #expect(reply.status == 200)
        #expect(reply.header("Content-Type") == "text/javascript; charset=utf-8")
        #expect(reply.header("Cache-Control") == "no-cache")
        #expect(reply.text.contains(#"const STATIC = "\#(fixture.app.staticFiles.versionedPrefix)";"#))
        #expect(reply.text.contains(#"url.pathname === "/logout""#))
    }
}
