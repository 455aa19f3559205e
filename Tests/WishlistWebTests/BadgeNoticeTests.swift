@testable import Persistence
import TestSupport
import Testing
import WishlistCore
@testable import WishlistWeb

/// A check-off that earns a badge says so on the trip page it leads back to.
@Suite struct BadgeNoticeTests {
    @Test func theCheckOffThatEarnsABadgeLeadsToAPageThatNamesIt() throws {
        let fixture = try AppHarness()
        let activity = try fixture.activity(named: AppHarness.tenthActivity)
        let reply = try fixture.client.post("/activities/\(activity.id)/complete", form: [("complete", "true")],
                                            token: try fixture.csrfToken())
        let goal = try #require(try fixture.store.achievedGoals().first { $0.name == "10 Activities" })
        #expect(reply.status == 303 && reply.header("Location") == "/trips/\(activity.tripID)?earned=\(goal.id)")
        let page = try fixture.client.get("/trips/\(activity.tripID)?earned=\(goal.id)")
        #expect(page.text.contains("You earned the “10 Activities” badge."))
    }

    /// The trip to go back to and the badges earned come from the check-off's own write: the
    /// POST opens no read transaction (one of its own used to, a reader's cache cold after each commit).
    @Test func aCheckOffReadsWhatItNeedsInItsWrite() throws {
        let fixture = try AppHarness()
        let activity = try fixture.activity(named: AppHarness.tenthActivity)
        let token = try fixture.csrfToken()
        let reads = fixture.store.database.readTransactionCount.load(ordering: .relaxed)
        let reply = try fixture.client.post("/activities/\(activity.id)/complete", form: [("complete", "true")], token: token)
        #expect(fixture.store.database.readTransactionCount.load(ordering: .relaxed) == reads)
        #expect(reply.header("Location")?.hasPrefix("/trips/\(activity.tripID)?earned=") == true)
        #expect(try fixture.activity(named: AppHarness.tenthActivity).isComplete)
    }

    @Test func aCheckOffThatEarnsNothingLeadsBackPlainly() throws {
        let fixture = try AppHarness()
        let activity = try fixture.activity(named: "Snowshoe hike")
        try fixture.store.setActivityComplete(id: activity.id, true)
        // Unchecking earns nothing.
        let reply = try fixture.client.post("/activities/\(activity.id)/complete", form: [("complete", "false"), ("editing", "1")],
                                            token: try fixture.csrfToken())
        #expect(reply.header("Location") == "/trips/\(activity.tripID)?edit=1")
        // A goal not achieved is never claimed, whatever the address says.
        let upcoming = try #require(try fixture.store.upcomingGoals().first)
        let page = try fixture.client.get("/trips/\(activity.tripID)?earned=\(upcoming.id)")
        #expect(!page.text.contains("You earned"))
    }

    /// The script follows a check-off's redirect asking for the page's fragments alone: the trip
    /// header, the checklist and the notice, each as the whole page has it, and nothing else.
    @Test func aScriptFollowingTheCheckOffGetsThePagesFragmentsAlone() throws {
        let fixture = try AppHarness()
        let activity = try fixture.activity(named: AppHarness.tenthActivity)
        let reply = try fixture.client.post("/activities/\(activity.id)/complete", form: [("complete", "true")],
                                            token: try fixture.csrfToken())
        let location = try #require(reply.header("Location"))
        let fragments = try fixture.client.get(location, headers: ["X-Wishlist-Fragments": "only"])
        let page = try fixture.client.get(location)
        #expect(fragments.status == 200 && page.status == 200)
        #expect(!fragments.text.contains("<html") && page.text.contains("<html"))
        let ids = fragments.text.matches(of: /<[a-z]+ [^>]*id="([a-z-]+)"/).map { String($0.output.1) }
        #expect(["trip-header", "activity-list", "trip-notice"].allSatisfy(ids.contains), "\(ids)")
        #expect(fragments.text.contains("You earned the “10 Activities” badge."))
        for element in fragments.text.split(separator: "\n") where element.contains("<form") {
            #expect(page.text.contains(element), "the fragments' forms are the page's, token and all")
        }
        #expect(fragments.body.count < page.body.count)
    }
}
