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
        try fixture.store.renameActivity(id: activity.id, name: "Theirs à 9 & ☀")  // another tab, meanwhile

        let refused = try fixture.client.post("/activities/\(activity.id)", form: [("name", "Mine"), ("was", activity.name)], token: token)
        #expect(refused.status == 412)
        #expect(refused.text.contains("renamed to “Theirs à 9 &amp; ☀” elsewhere"))
        #expect(try fixture.store.activity(id: activity.id)?.name == "Theirs à 9 & ☀")

        // "Keep mine" sends it again with the name the refusal names (ASCII, as a header must be).
        let now = try #require(refused.header(CurrentVersions.header))
        #expect(now == "was=Theirs%20%C3%A0%209%20%26%20%E2%98%80")
        let over = try fixture.client.post("/activities/\(activity.id)", form: [("name", "Mine"), ("was", "Theirs à 9 & ☀")], token: token)
        #expect(over.status == 303)
        #expect(try fixture.store.activity(id: activity.id)?.name == "Mine")
    }

    @Test func aRenameWithoutTheNameItReplacesIsRefused() throws {
        let fixture = try AppHarness()
        let activity = try #require(try fixture.store.fetch(.checklist(tripID: 1))?.activities.first)
        let without = try fixture.client.post("/activities/\(activity.id)", form: [("name", "Unchecked")], token: try fixture.csrfToken())
        #expect(without.status == 428)
        #expect(try fixture.store.activity(id: activity.id)?.name == activity.name)
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

/// The trip form is saved all or nothing: the trip's fields and the activity names typed beside
/// them, each checked in the write's transaction against what the form was drawn with; a form
/// without its versions is shown again, never trusted.
@Suite struct TripFormAllOrNothingTests {
    struct DrawnForm {
        let was: String
        /// The rename fields' names as drawn, by activity id.
        let activityNames: [Int64: String]
        /// `activity-was-<id>` by activity id.
        let activityWas: [Int64: String]

        init(_ page: String) throws {
            was = try TripChangedMeanwhileTests.was(in: page)
            activityNames = Self.values(of: /name="activity-name-(\d+)" form="edit-trip" value="([^"]*)"/, in: page)
            activityWas = Self.values(of: /name="activity-was-(\d+)" form="edit-trip" value="([^"]*)"/, in: page)
        }

        private static func values(of field: Regex<(Substring, Substring, Substring)>, in page: String) -> [Int64: String] {
            Dictionary(page.matches(of: field).map { (Int64($0.1)!, SearchPageTests.Screen.unescaped(String($0.2))) }) { $1 }
        }

        /// The form as Done sends it: the trip's fields, and each activity's name (`renamed` or as drawn).
        func fields(name: String, renamed: [Int64: String]) -> [(String, String)] {
            [("name", name), ("subtitle", ""), ("collection", TripCollection.springEscapes.rawValue), ("was", was)]
                + activityNames.sorted { $0.key < $1.key }.flatMap { id, drawn in
                    [("activity-name-\(id)", renamed[id] ?? drawn)] + (activityWas[id].map { [("activity-was-\(id)", $0)] } ?? [])
                }
        }
    }

    @Test func aStaleFormsRenameIsRefusedWithItAndTheOtherRenameIsKept() throws {
        let fixture = try AppHarness()
        var mine = fixture.browser()
        let form = try DrawnForm(try mine.get("/trips/1?edit=1").text)
        let activity = try #require(try fixture.store.fetch(.checklist(tripID: 1))?.activities.first)
        #expect(form.activityWas[activity.id] == activity.name)
        let trip = try #require(try fixture.store.trip(id: 1))
        try fixture.store.renameActivity(id: activity.id, name: "Theirs", expected: activity.name)  // another tab

        let refused = try mine.post("/trips/1", form: form.fields(name: "My Trip", renamed: [activity.id: "Mine"]))
        #expect(refused.status == 412)
        #expect(try fixture.store.activity(id: activity.id)?.name == "Theirs", "the other tab's rename is kept")
        #expect(try fixture.store.trip(id: 1)?.name == trip.name, "nothing of the form is saved")
        #expect(refused.text.contains("value=\"Mine\"") && refused.text.contains("value=\"My Trip\""), "what was typed is kept")
        #expect(try DrawnForm(refused.text).activityWas[activity.id] == "Theirs")

        // Saved again from the form shown now, it replaces the other change, as the person chose.
        let again = try mine.post("/trips/1", form: try DrawnForm(refused.text).fields(name: "My Trip", renamed: [activity.id: "Mine"]))
        #expect(again.status == 303)
        #expect(try fixture.store.activity(id: activity.id)?.name == "Mine" && fixture.store.trip(id: 1)?.name == "My Trip")
    }

    @Test func aFormDrawnBeforeTheTripChangedSavesNoneOfItsRenames() throws {
        let fixture = try AppHarness()
        var mine = fixture.browser()
        let form = try DrawnForm(try mine.get("/trips/1?edit=1").text)
        let activity = try #require(try fixture.store.fetch(.checklist(tripID: 1))?.activities.first)
        try fixture.store.updateTrip(id: 1, draft: TripDraft(name: "Theirs", collection: .springEscapes))  // another tab

        let refused = try mine.post("/trips/1", form: form.fields(name: "My Trip", renamed: [activity.id: "Mine"]))
        #expect(refused.status == 412)
        #expect(try fixture.store.activity(id: activity.id)?.name == activity.name, "the rename went with the refused trip")
        #expect(try fixture.store.trip(id: 1)?.name == "Theirs")
        // What a kept write's "Keep mine" sends again with: the versions of now.
        let now = Dictionary(uniqueKeysWithValues: [(String, String)](
            try #require(refused.header(CurrentVersions.header)).split(separator: "&").map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1).map { $0.removingPercentEncoding ?? "" }
                return (parts[0], parts.count > 1 ? parts[1] : "")
            }))
        #expect(now["was"] == (try fixture.store.trip(id: 1)?.editVersion))
        #expect(now["activity-was-\(activity.id)"] == activity.name)
    }

    @Test func aFormWithoutItsVersionsIsRefusedWithWhatWasTyped() throws {
        let fixture = try AppHarness()
        var mine = fixture.browser()
        let form = try DrawnForm(try mine.get("/trips/1?edit=1").text)
        let activity = try #require(try fixture.store.fetch(.checklist(tripID: 1))?.activities.first)
        let trip = try #require(try fixture.store.trip(id: 1))
        let fields = form.fields(name: "My Trip", renamed: [activity.id: "Mine"])

        for missing in ["was", "activity-was-\(activity.id)"] {
            let refused = try mine.post("/trips/1", form: fields.filter { $0.0 != missing })
            #expect(refused.status == 428, "without \(missing)")
            #expect(refused.text.contains("value=\"My Trip\"") && refused.text.contains("value=\"Mine\""), "what was typed is kept")
            #expect(try fixture.store.trip(id: 1)?.name == trip.name && fixture.store.activity(id: activity.id)?.name == activity.name)
        }
    }
}
