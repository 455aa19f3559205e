import HTTPServer
import Testing
import TestSupport
@testable import WishlistWeb

/// With a password, a trip's link opened while signed out (a calendar event's) lands on that
/// trip once signed in, not on the Wishlist.
@Suite struct SignInReturnTests {
    @Test func signingInFromATripsLinkLandsOnThatTrip() throws {
        let fixture = try AppHarness(password: "open sesame")
        let trip = try #require(try fixture.store.trips(in: .winterRetreats).first)
        var browser = fixture.browser()
        let asked = try browser.get("/trips/\(trip.id)", headers: ["Accept": "text/html"])
        let login = try browser.get(try #require(asked.header("Location")), headers: ["Accept": "text/html"])
        #expect(login.status == 200)
        #expect(login.text.contains(#"<input type="hidden" name="return" value="/trips/\#(trip.id)">"#))
        let signIn = try browser.post("/login", form: [("password", "open sesame"), ("return", "/trips/\(trip.id)")])
        #expect(signIn.status == 303 && signIn.header("Location") == "/trips/\(trip.id)")
        let page = try browser.get("/trips/\(trip.id)", headers: ["Accept": "text/html"])
        #expect(page.status == 200 && page.text.contains(trip.name))
    }

    @Test(arguments: ["//evil.com", "https://evil.com", "/\\evil.com"])
    func aHostileReturnLandsOnTheWishlist(_ hostile: String) throws {
        let fixture = try AppHarness(password: "open sesame")
        var browser = fixture.browser()
        _ = try browser.get("/login")
        let signIn = try browser.post("/login", form: [("password", "open sesame"), ("return", hostile)])
        #expect(signIn.status == 303 && signIn.header("Location") == "/")
    }
}
