import Testing
import TestSupport
import WishlistCore
@testable import WishlistWeb

/// A write sent again with the key it was first sent with (kept offline, its answer lost) is
/// written once and answered as the first time; another key is another write.
@Suite struct IdempotentWritesTests {
    @Test func aCheckOffSentTwiceWithOneKeyIsWrittenOnceAndAnsweredAlike() throws {
        let fixture = try AppHarness()
        let token = try fixture.csrfToken()
        let activity = try #require(try fixture.store.fetch(.checklist(tripID: 1))?.activities.first { !$0.isComplete })
        let target = "/activities/\(activity.id)/complete"
        let before = try fixture.store.database.latestHistoryToken()

        let first = try fixture.client.post(target, form: [("complete", "true")], token: token, headers: ["Idempotency-Key": "check-1"])
        try fixture.store.setActivityComplete(id: activity.id, false)  // meanwhile, another tab unchecks it
        let again = try fixture.client.post(target, form: [("complete", "true")], token: token, headers: ["Idempotency-Key": "check-1"])
        #expect(first.status == 303 && again.status == 303 && again.header("Location") == first.header("Location"))
        let after = try fixture.store.database.latestHistoryToken()
        #expect(after == before + 2, "the check-off and the other tab's, once each")
        let meanwhile = try fixture.store.activity(id: activity.id)
        #expect(meanwhile?.isComplete == false, "the key's write was not run again")

        let other = try fixture.client.post(target, form: [("complete", "true")], token: token, headers: ["Idempotency-Key": "check-2"])
        let now = try fixture.store.activity(id: activity.id)
        #expect(other.status == 303 && now?.isComplete == true)
    }

    @Test func aKeyThatIsNotOneIsRefused() throws {
        let fixture = try AppHarness()
        let token = try fixture.csrfToken()
        for key in ["", String(repeating: "k", count: 65), "a b", "ключ"] {
            let reply = try fixture.client.post("/activities/1/complete", form: [("complete", "true")], token: token,
                                                headers: ["Idempotency-Key": key])
            #expect(reply.status == 400, "\(key)")
        }
    }
}
