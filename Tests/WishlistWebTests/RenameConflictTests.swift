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
