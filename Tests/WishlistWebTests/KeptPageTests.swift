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

    /// `commit` leaves `path`'s kept page current: served as it was, without a read, with the
    /// commit's live token.
    static func expectServedWithoutRead(_ path: String, _ fixture: AppHarness, _ client: inout Browser,
                                        after commit: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = try client.get(path)
        let reads = fixture.store.database.readTransactionCount.load(ordering: .relaxed)
        try commit()
        let after = try client.get(path)
        #expect(fixture.store.database.readTransactionCount.load(ordering: .relaxed) == reads, "served without a read",
                sourceLocation: sourceLocation)
        #expect(withoutLiveSince(after) == withoutLiveSince(before), sourceLocation: sourceLocation)
        #expect(liveSince(after) == String(try fixture.store.database.latestHistoryToken()), "the live token moved to the commit",
                sourceLocation: sourceLocation)
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

    /// Which activities a trip has and what each shows are kept apart, as the trips of `/`: a
    /// check-off in another trip changes no row and no column the page read.
    @Test func aCheckOffInAnotherTripServesATripPageWithoutReadingIt() throws {
        let fixture = try AppHarness()
        var client = fixture.browser()
        let trips = try fixture.store.trips(in: .winterRetreats)
        let (shown, other) = (try #require(trips.first), try #require(trips.dropFirst().first))
        let activity = try #require(try fixture.store.fetch(.checklist(tripID: other.id))?.activities.first)
        try Self.expectServedWithoutRead("/trips/\(shown.id)", fixture, &client) {
            try fixture.store.setActivityComplete(id: activity.id, !activity.isComplete)
        }

        // The trip's own activities: a new one, a rename, a check-off each show at once.
        let added = try fixture.store.addActivity(tripID: shown.id, name: "Aa Added Activity")
        #expect(try client.get("/trips/\(shown.id)").text.contains("Aa Added Activity"))
        try fixture.store.renameActivity(id: added, name: "Aa Renamed Activity")
        #expect(try client.get("/trips/\(shown.id)").text.contains("Aa Renamed Activity"))
        let checked = try client.get("/trips/\(shown.id)").text.components(separatedBy: #"aria-checked="true""#).count
        _ = try fixture.store.setActivityComplete(id: added, true)
        #expect(try client.get("/trips/\(shown.id)").text.components(separatedBy: #"aria-checked="true""#).count == checked + 1)
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

    /// An activity of a trip older than the carousel's five and last by name in a row of ten:
    /// on no card of the Wishlist screen.
    static func activityOfATripOnNoCard(_ fixture: AppHarness) throws -> Int64 {
        let hidden = try fixture.store.addTrip(TripDraft(name: "Zz Hidden Trip", collection: .summerVibes))
        let activity = try fixture.store.addActivity(tripID: hidden, name: "Swim")
        for number in 1...10 { _ = try fixture.store.addTrip(TripDraft(name: "Aa Trip \(number)", collection: .summerVibes)) }
        return activity
    }

    @Test func aCheckOffInATripNoCardShowsLeavesTheWishlistScreenAsDrawn() throws {
        let fixture = try AppHarness()
        var client = fixture.browser()
        let activity = try Self.activityOfATripOnNoCard(fixture)
        let before = try client.get("/")
        #expect(!before.text.contains("Zz Hidden Trip"))
        _ = try client.get("/goals")
        let drawn = fixture.app.pages.drawnCount.load(ordering: .relaxed)
        let tripsRead = fixture.store.database.keptRows.recordsRead.load(ordering: .relaxed)

        try fixture.store.setActivityComplete(id: activity, true)
        let after = try client.get("/")
        _ = try client.get("/goals")

        #expect(Self.withoutLiveSince(after) == Self.withoutLiveSince(before))
        // The Goals screen's progress moved: drawn again, the Wishlist screen not.
        #expect(fixture.app.pages.drawnCount.load(ordering: .relaxed) == drawn + 1)
        // Nor were its trips read again: which trips it lists and what each shows were kept.
        #expect(fixture.store.database.keptRows.recordsRead.load(ordering: .relaxed) == tripsRead)
    }

    /// A commit that changes nothing a kept page read (no column of its lists, no row of its
    /// trips) leaves it current: served without a read, with the commit's live token.
    @Test func aCheckOffInATripNoCardShowsServesTheWishlistScreenWithoutReadingIt() throws {
        let fixture = try AppHarness()
        var client = fixture.browser()
        let activity = try Self.activityOfATripOnNoCard(fixture)
        try Self.expectServedWithoutRead("/", fixture, &client) { try fixture.store.setActivityComplete(id: activity, true) }

        // A rename of a trip on a card changes a column its lists read: read again, and shown.
        let shown = try #require(try fixture.store.trips(in: .summerVibes).first)
        try fixture.store.updateTrip(id: shown.id, draft: TripDraft(name: "Aa Renamed", collection: .summerVibes))
        #expect(try client.get("/").text.contains("Aa Renamed"))
    }

    @Test func aCheckOffInATripOnACardReadsThatTripAloneAndShowsIt() throws {
        let fixture = try AppHarness()
        var client = fixture.browser()
        let shown = try fixture.store.addTrip(TripDraft(name: "Aa Shown Trip", collection: .summerVibes))
        let activity = try fixture.store.addActivity(tripID: shown, name: "Swim")
        let before = try client.get("/")
        let tripsRead = fixture.store.database.keptRows.recordsRead.load(ordering: .relaxed)

        try fixture.store.setActivityComplete(id: activity, true)
        let after = try client.get("/")

        #expect(Self.withoutLiveSince(after) != Self.withoutLiveSince(before), "the card shows the trip complete")
        #expect(after.text == (try client.get("/")).text)
        #expect(fixture.store.database.keptRows.recordsRead.load(ordering: .relaxed) == tripsRead + 1)
    }

    /// A trip on a card of one collection row only: older than the carousel's five.
    static func tripInOneRow(_ fixture: AppHarness) throws -> (trip: Int64, activity: Int64) {
        let trip = try fixture.store.addTrip(TripDraft(name: "Aa Row Trip", collection: .summerVibes))
        let activity = try fixture.store.addActivity(tripID: trip, name: "Swim")
        for number in 1...CarouselFragment.size { _ = try fixture.store.addTrip(TripDraft(name: "Newer \(number)", collection: .winterRetreats)) }
        return (trip, activity)
    }

    static func section(_ id: String, of page: Reply) -> Substring? {
        guard let start = page.text.range(of: "<section class=\"collection\" id=\"\(id)\"") else { return nil }
        return page.text[start.lowerBound...].prefix { $0 != "§" }.split(separator: "</section>", maxSplits: 1).first
    }

    /// A page drawn again after a commit draws only the fragments whose data changed and
    /// splices in the others' kept bytes.
    @Test func aCheckOffOnACardDrawsThatRowAloneAndKeepsTheOtherFragments() throws {
        let fixture = try AppHarness()
        var client = fixture.browser()
        let (_, activity) = try Self.tripInOneRow(fixture)
        let before = try client.get("/")
        #expect(!(Self.section("collection-summerVibes", of: before)?.contains("chip-done") ?? true))
        let fragmentsDrawn = fixture.app.pages.fragments.drawnCount.load(ordering: .relaxed)
        let pagesDrawn = fixture.app.pages.drawnCount.load(ordering: .relaxed)

        try fixture.store.setActivityComplete(id: activity, true)
        let after = try client.get("/")

        #expect(fixture.app.pages.drawnCount.load(ordering: .relaxed) == pagesDrawn + 1, "the page changed")
        #expect(fixture.app.pages.fragments.drawnCount.load(ordering: .relaxed) == fragmentsDrawn + 1, "one row drawn, four fragments kept")
        #expect(Self.section("collection-summerVibes", of: after)?.contains("chip-done") == true, "the card shows the trip complete")
        for collection in [TripCollection.springEscapes, .fallGetaways, .winterRetreats] {
            #expect(Self.section("collection-\(collection.rawValue)", of: after) == Self.section("collection-\(collection.rawValue)", of: before))
        }
        // The spliced page is the page: gzipped, it is the same bytes, and a viewer's token goes in every form of every fragment.
        let gzipped = try client.get("/", headers: ["Accept-Encoding": "gzip"])
        #expect(gzipped.header("Content-Encoding") == "gzip")
        #expect(try gunzip(gzipped.body) == Array(after.text.utf8))
    }

    /// A commit's fragment is drawn once: for the open tabs' live update, and the page drawn
    /// after it splices in those same bytes.
    @Test func aFragmentDrawnForOpenTabsIsSplicedIntoThePageDrawnAfter() throws {
        let server = try LiveServer()
        defer { server.stop() }
        let (_, activity) = try Self.tripInOneRow(server)
        _ = try server.get("/")
        let client = try SocketClient.openEvents("/events?topics=collection.summerVibes", port: server.port)
        defer { client.disconnect() }
        _ = try client.nextEvent(named: "ready")

        try server.store.setActivityComplete(id: activity, true)
        let live = try #require(try client.nextEvent(named: "fragment").json()["html"] as? String)
        let drawn = server.app.pages.fragments.drawnCount.load(ordering: .relaxed)
        let page = try server.get("/")

        #expect(server.app.pages.fragments.drawnCount.load(ordering: .relaxed) == drawn, "the row was drawn once, for the stream")
        #expect(live.contains("chip-done"))
        #expect(page.text.contains(live.replacingOccurrences(of: "name=\"_csrf\" value=\"\"", with: "name=\"_csrf\" value=\"\(page.cookie("csrf_token") ?? "")\"")))
    }

    /// A search's matches are kept by name and its page's trips and activities by row: a
    /// check-off of an activity it does not show leaves it current, served without a read.
    @Test func aCheckOffOfAnActivityASearchDoesNotShowServesItWithoutReadingIt() throws {
        let fixture = try AppHarness()
        var client = fixture.browser()
        let trip = try fixture.store.addTrip(TripDraft(name: "Aa Qqsnorkel Trip", collection: .summerVibes))
        let shown = try fixture.store.addActivity(tripID: trip, name: "Qqsnorkel the reef")
        let other = try fixture.store.addActivity(tripID: try fixture.store.addTrip(TripDraft(name: "Elsewhere", collection: .summerVibes)),
                                                  name: "Swim")
        try Self.expectServedWithoutRead("/search?q=qqsnorkel", fixture, &client) { try fixture.store.setActivityComplete(id: other, true) }

        // Its own activity's check-off and its trip's rename show.
        try fixture.store.setActivityComplete(id: shown, true)
        #expect(try client.get("/search?q=qqsnorkel").text.contains("is-complete"))
        try fixture.store.updateTrip(id: trip, draft: TripDraft(name: "Aa Qqsnorkel Renamed", collection: .summerVibes))
        #expect(try client.get("/search?q=qqsnorkel").text.contains("Renamed"))
    }

    /// A page drawn again because a fragment changed renders its own template once, ever: the
    /// fragment's new bytes are spliced into the template as kept.
    @Test func aPageDrawnAgainForAFragmentKeepsItsTemplate() throws {
        let fixture = try AppHarness()
        var client = fixture.browser()
        let trip = try #require(try fixture.store.trips(in: .winterRetreats).first)
        let activity = try #require(try fixture.store.fetch(.checklist(tripID: trip.id))?.activities.first(where: { !$0.isComplete }))
        let before = try client.get("/goals")
        let rendered = fixture.app.pages.skeletonsDrawnCount.load(ordering: .relaxed)

        try fixture.store.setActivityComplete(id: activity.id, true)
        let after = try client.get("/goals")

        #expect(Self.withoutLiveSince(after) != Self.withoutLiveSince(before), "the progress moved")
        #expect(fixture.app.pages.skeletonsDrawnCount.load(ordering: .relaxed) == rendered, "the template was not rendered again")
    }

    /// Kept pages are current after a commit that changes what they show, on every kept screen:
    /// a check-off that completes a trip shows on its search result, its trip page, its card in
    /// "Show all" and the Trips tab.
    @Test(arguments: ["/search?q=qqsnorkel", "/trips/:trip", "/collections/summerVibes", "/trips"])
    func aCheckOffShowsOnAKeptPageThatShowsIt(path: String) throws {
        let fixture = try AppHarness()
        var client = fixture.browser()
        let trip = try fixture.store.addTrip(TripDraft(name: "Aa Qqsnorkel Trip", collection: .summerVibes))
        let activity = try fixture.store.addActivity(tripID: trip, name: "Qqsnorkel the reef")
        let target = path.replacingOccurrences(of: ":trip", with: String(trip))
        let before = try client.get(target).text
        #expect(before.contains("Qqsnorkel"))

        try fixture.store.setActivityComplete(id: activity, true)
        let after = try client.get(target).text

        #expect(after != before)
        #expect(after.contains("is-complete") || after.contains("chip-done"), "the completion shows")
    }
}
