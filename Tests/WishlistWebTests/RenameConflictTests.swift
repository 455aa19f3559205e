import Testing
import TestSupport
import WishlistCore
@testable import WishlistWeb

/// A rename sent with the name it replaces (`was`, as the page's script sends it) overwrites no
/// rename made elsewhere meanwhile: 412, saying the name it has now; the person chooses.
@Suite struct RenameConflictTests {
    @Test func aRenameOfANameChangedMeanwhileIsRefusedAndSaysTheNewName() throws {
        let fixture = try AppHarness()
        let token = try fixture.csrfToken()
        let activity = try #require(try fixture.store.fetch(.checklist(tripID: 1))?.activities.first)
        try fixture.store.renameActivity(id: activity.id, name: "Theirs")  // another tab, meanwhile

        let refused = try fixture.client.post("/activities/\(activity.id)", form: [("name", "Mine"), ("was", activity.name)], token: token)
        #expect(refused.status == 412)
        #expect(refused.text.contains("renamed to “Theirs” elsewhere"))
        #expect(try fixture.store.activity(id: activity.id)?.name == "Theirs")

        let over = try fixture.client.post("/activities/\(activity.id)", form: [("name", "Mine"), ("was", "Theirs")], token: token)
        #expect(over.status == 303)
        let without = try fixture.client.post("/activities/\(activity.id)", form: [("name", "Without a form's check")], token: token)
        #expect(without.status == 303, "a form without script sends no `was`, as before")
        #expect(try fixture.store.activity(id: activity.id)?.name == "Without a form's check")
    }
}

/// The trip form carries the trip as it drew it (`was`, its `editVersion`): a save from a form
/// drawn before another tab's save is refused with 412 and shown again with what was typed, and
/// saving that form again means to replace the other change.
@Suite struct TripChangedMeanwhileTests {
    static func was(in page: String) throws -> String {
        let match = try #require(page.firstMatch(of: /name="was" value="([0-9a-f]+)"/))
        return String(match.1)
    }

    @Test func aTripSavedFromAFormDrawnBeforeAnotherSaveIsAskedAgainWithWhatWasTyped() throws {
        let fixture = try AppHarness()
        var mine = fixture.browser(), theirs = fixture.browser()
        let drawn = try Self.was(in: try mine.get("/trips/1?edit=1").text)
        let fields = { (name: String, was: String) in
            [("name", name), ("subtitle", ""), ("collection", TripCollection.springEscapes.rawValue), ("was", was)]
        }
        _ = try theirs.get("/trips/1?edit=1")
        #expect(try theirs.post("/trips/1", form: fields("Theirs", drawn)).status == 303)

        let refused = try mine.post("/trips/1", form: fields("Mine", drawn))
        #expect(refused.status == 412)
        #expect(refused.text.contains("changed elsewhere since this form was opened"))
        #expect(refused.text.contains("value=\"Mine\""), "what was typed is kept")
        #expect(try fixture.store.trip(id: 1)?.name == "Theirs")

        let again = try mine.post("/trips/1", form: fields("Mine", try Self.was(in: refused.text)))
        #expect(again.status == 303)
        #expect(try fixture.store.trip(id: 1)?.name == "Mine")
    }
}
