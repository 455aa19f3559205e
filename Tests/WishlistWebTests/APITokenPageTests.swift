import Foundation
import HTTPServer
import Testing
import TestSupport
import WishlistCore
@testable import WishlistWeb

/// API tokens on the Data page, behind the password, and from `wishlist token`.
@Suite struct APITokenPageTests {
    @Test func theDataPageMakesATokenShowsItsSecretOnceAndRevokesIt() throws {
        let harness = try AppHarness()
        var browser = harness.browser()
        #expect(try browser.get("/data").text.contains("No tokens yet."))
        let created = try browser.post("/data/tokens", form: [("name", "laptop-sync")])
        #expect(created.status == 200 && created.header("Cache-Control") == "no-store")
        let secret = try #require(created.text.firstMatch(of: /id="new-token-secret">(wlt_[0-9a-f]{64})</)?.1)
        #expect(try harness.store.apiToken(secretHash: BearerToken.hash(String(secret)))?.name == "laptop-sync")
        let later = try browser.get("/data").text
        #expect(later.contains(#"<span class="token-name">laptop-sync</span>"#) && !later.contains(secret))

        let duplicate = try browser.post("/data/tokens", form: [("name", "laptop-sync")])
        #expect(duplicate.status == 422 && duplicate.text.contains("There is already a token called"))
        #expect(duplicate.text.contains(#"id="token-name" name="name" value="laptop-sync""#), "what was typed is kept")

        let revoked = try browser.post("/data/tokens/laptop-sync/revoke", form: [])
        #expect(revoked.status == 303 && revoked.header("Location") == "/data#tokens")
        #expect(try harness.store.apiTokens().isEmpty)
        #expect(try browser.post("/data/tokens/laptop-sync/revoke", form: []).status == 404)
        // The page's forms are CSRF-protected like every other.
        #expect(try harness.client.post("/data/tokens", form: [("name", "x")], token: nil).status == 403)
    }

    /// With a password, a token opens /api/ (and nothing else) without a session.
    @Test func aTokenPassesThePasswordForTheAPIOnly() throws {
        let harness = try AppHarness(password: "correct horse")
        let secret = try APITokens.create(named: "script", in: harness.store)
        let bearer = ["Authorization": "Bearer \(secret)"]
        #expect(try harness.client.get("/api/trips").status == 401)
        #expect(try harness.client.get("/api/trips", headers: bearer).status == 200)
        #expect(try harness.client.get("/", headers: bearer.merging(["Accept": "text/html"]) { $1 }).status == 401)
        #expect(try harness.client.get("/api/trips", headers: ["Authorization": "Bearer wlt_guess"]).status == 401)
    }
}
