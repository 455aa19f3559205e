import Testing
@testable import HTTPServer

@Suite struct CrossSiteReadProtectionTests {
    /// Only routes registered as pages are open to other sites; a route added with `get` (or any
    /// path no route has) is protected without being listed anywhere.
    @Test func onlyPagesAreOpenAndTheMostSpecificRouteDecides() {
        var router = Router()
        router.page("/trips/:id") { _ in Response() }
        router.get("/trips/:id/original") { _ in Response() }
        router.get("/trips/export") { _ in Response() }
        router.post("/trips") { _ in Response() }
        for path in ["/trips/3", "//trips//3"] {
            #expect(router.isPage(path), "\(path)")
        }
        for path in ["/trips/3/original", "/trips/export", "/trips", "/", "/static/app.css", "/trips/3/x/y"] {
            #expect(!router.isPage(path), "\(path)")
        }
    }

    @Test func aProtectedPathRefusesOtherSitesAndAnOpenOneDoesNot() throws {
        var router = Router()
        router.page("/") { _ in Response() }
        router.get("/data/export") { _ in Response() }
        let protection = CrossSiteReadProtection(openPages: { [router] in router.isPage($0) })
        let handler: Handler = { _ in Response() }
        for (path, refused) in [("/", false), ("/data/export", true)] {
            let request = Request(method: .get, path: path, headers: ["Sec-Fetch-Site": "cross-site"])
            let outcome = Result { try protection.respond(to: request, next: handler) }
            #expect((try? outcome.get()) == nil ? refused : !refused, "\(path)")
        }
    }
}
