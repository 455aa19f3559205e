import Foundation
import Testing
import TestSupport
import WishlistCore

/// The database file deleted under a running server: changes are refused with what happened and
/// the restore steps, and the form keeps what was typed, instead of a 303 for a lost write.
@Suite struct DatabaseGoneTests {
    @Test func aDeletedDatabaseStopsChangesWithTheRestoreSteps() throws {
        let harness = try AppHarness()
        var browser = harness.browser()
        _ = try browser.get("/trips/new")
        try FileManager.default.removeItem(atPath: harness.databasePath)

        let trip = [("name", "Kyoto in autumn"), ("collection", TripCollection.fallGetaways.rawValue)]
        let form = try browser.post("/trips", form: trip)
        #expect(form.status == 503)
        #expect(form.text.contains("the database file \(harness.databasePath) was deleted or moved while it was open"))
        #expect(form.text.contains("wishlist restore FOLDER --data-dir \(harness.directory)"))
        #expect(form.text.contains("value=\"Kyoto in autumn\""))
        let toggle = try browser.post("/activities/1/complete", form: [("complete", "true")])
        #expect(toggle.status == 503 && toggle.text.contains("was deleted or moved"))
    }
}
