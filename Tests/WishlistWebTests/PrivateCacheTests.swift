import HTTPServer
import Testing
import TestSupport
import WishlistCore

/// Behind a password, what a signed-in owner sees must stay in their browser: no response may
/// invite a shared cache (a proxy, a corporate cache) to keep a photo or a page.
@Suite struct PrivateCacheTests {
    @Test func signedInPhotosAndPagesAreCachedOnlyByTheBrowser() throws {
        let fixture = try AppHarness(password: "open sesame")
        let client = fixture.client
        let token = try #require(try client.get("/login").cookie(CSRFProtection.cookieName))
        let signIn = try client.post("/login", form: [("password", "open sesame")], token: token)
        let session = try #require(signIn.cookie(ServePasswordTests.sessionCookie))
        let cookies = ["Cookie": "\(ServePasswordTests.sessionCookie)=\(session); \(CSRFProtection.cookieName)=\(token)"]

        let trip = try #require(try fixture.store.trips(in: .winterRetreats).first)
        let version = try #require(trip.photo?.version)
        for target in ["/trips/\(trip.id)/thumbnail?v=\(version)", "/trips/\(trip.id)/photo/1024?v=\(version)"] {
            let photo = try client.get(target, headers: cookies)
            #expect(photo.status == 200, "\(target)")
            #expect(photo.header("Cache-Control") == "private, max-age=31536000, immutable", "\(target)")
        }
        let unversioned = try client.get("/trips/\(trip.id)/thumbnail", headers: cookies)
        #expect(unversioned.header("Cache-Control") == "private, no-cache")
        let page = try client.get("/", headers: cookies.merging(["Accept": "text/html"]) { $1 })
        #expect(page.status == 200 && page.header("Cache-Control") == "private, no-cache")
    }
}
