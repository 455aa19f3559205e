import Testing
import TestSupport
@testable import Persistence
import WishlistCore
@testable import WishlistWeb

/// A kept page outlives a commit that leaves what it shows as it was: it is read again, found
/// unchanged and served as kept (with the newer live token), without being drawn again.
@Suite struct KeptPageTests {
    static func liveSince(_ page: Reply) -> String? {
        guard let range = page.text.range(of: #"data-live-since="[0-9]+""#, options: .regularExpression) else { return nil }
        return String(page.text[range].dropFirst(#"data-live-since=""#.count).dropLast())
    }

    static func withoutLiveSince(_ page: Reply) -> String {
        page.text.replacingOccurrences(of: #"data-live-since="[0-9]+""#, with: "", options: .regularExpression)
    }

    @Test func aCheckOffInAnotherTripLeavesATripPageAsDrawn() throws {
        let fixture = try AppHarness()
        var client = fixture.browser()
        let trips = try fixture.store.trips(in: .winterRetreats)
        let (shown, other) = (try #require(trips.first), try #require(trips.dropFirst().first))
        let before = try client.get("/trips/\(shown.id)")
        let drawn = fixture.app.pages.drawnCount.load(ordering: .relaxed)

        let activity = try #require(try fixture.store.fetch(.checklist(tripID: other.id))?.activities.first)
        try fixture.store.setActivityComplete(id: activity.id, !activity.isComplete)
        let after = try client.get("/trips/\(shown.id)")

        #expect(Self.withoutLiveSince(after) == Self.withoutLiveSince(before))
        #expect(Self.liveSince(after) == String(try fixture.store.database.latestHistoryToken()), "the live token moved to the commit")
        #expect(Self.liveSince(after) != Self.liveSince(before))
        #expect(fixture.app.pages.drawnCount.load(ordering: .relaxed) == drawn, "served as kept, not drawn again")
    }

    @Test func aCheckOffInTheTripDrawsItsPageAgain() throws {
        let fixture = try AppHarness()
        var client = fixture.browser()
        let trip = try #require(try fixture.store.trips(in: .winterRetreats).first)
        let activity = try #require(try fixture.store.fetch(.checklist(tripID: trip.id))?.activities.first(where: { !$0.isComplete }))
        let before = try client.get("/trips/\(trip.id)")
        let drawn = fixture.app.pages.drawnCount.load(ordering: .relaxed)

        try fixture.store.setActivityComplete(id: activity.id, true)
        let after = try client.get("/trips/\(trip.id)")

        #expect(Self.withoutLiveSince(after) != Self.withoutLiveSince(before))
        #expect(fixture.app.pages.drawnCount.load(ordering: .relaxed) == drawn + 1)
    }

    @Test func aCheckOffInATripNoCardShowsLeavesTheWishlistScreenAsDrawn() throws {
        let fixture = try AppHarness()
        var client = fixture.browser()
        // Older than the carousel's five and last by name in a row of ten: on no card of the screen.
        let hidden = try fixture.store.addTrip(TripDraft(name: "Zz Hidden Trip", collection: .summerVibes))
        let activity = try fixture.store.addActivity(tripID: hidden, name: "Swim")
        for number in 1...10 { _ = try fixture.store.addTrip(TripDraft(name: "Aa Trip \(number)", collection: .summerVibes)) }
        let before = try client.get("/")
        #expect(!before.text.contains("Zz Hidden Trip"))
        _ = try client.get("/goals")
        let drawn = fixture.app.pages.drawnCount.load(ordering: .relaxed)
        let tripsRead = fixture.store.database.keptRecords.readCount.load(ordering: .relaxed)

        try fixture.store.setActivityComplete(id: activity, true)
        let after = try client.get("/")
        _ = try client.get("/goals")

        #expect(Self.withoutLiveSince(after) == Self.withoutLiveSince(before))
        // The Goals screen's progress moved: drawn again, the Wishlist screen not.
        #expect(fixture.app.pages.drawnCount.load(ordering: .relaxed) == drawn + 1)
        // Nor were its trips read again: which trips it lists and what each shows were kept.
        #expect(fixture.store.database.keptRecords.readCount.load(ordering: .relaxed) == tripsRead)
    }

    @Test func aCheckOffInATripOnACardReadsThatTripAloneAndShowsIt() throws {
        let fixture = try AppHarness()
        var client = fixture.browser()
        let shown = try fixture.store.addTrip(TripDraft(name: "Aa Shown Trip", collection: .summerVibes))
        let activity = try fixture.store.addActivity(tripID: shown, name: "Swim")
        let before = try client.get("/")
        let tripsRead = fixture.store.database.keptRecords.readCount.load(ordering: .relaxed)

        try fixture.store.setActivityComplete(id: activity, true)
        let after = try client.get("/")

        #expect(Self.withoutLiveSince(after) != Self.withoutLiveSince(before), "the card shows the trip complete")
        #expect(after.text == (try client.get("/")).text)
        #expect(fixture.store.database.keptRecords.readCount.load(ordering: .relaxed) == tripsRead + 1)
    }
}
