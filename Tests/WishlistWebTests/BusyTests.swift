import Dispatch
import Foundation
import Testing
import TestSupport
import WishlistCore

/// Writes while another process holds the write lock (as `wishlist import` does for its whole
/// import): a 503 with Retry-After and the form again with what was typed, never a 500.
@Suite struct BusyTests {
    @Test func aWriteDuringAnImportIsA503AndTheFormKeepsWhatWasTyped() throws {
        let harness = try AppHarness()
        // No person waits in a test: fail at once instead of after the server's second.
        try harness.store.database.setWriteBusyTimeout(.milliseconds(10))
        let importer = try WishlistStore(path: harness.databasePath)
        defer { importer.close() }
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), ended = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? importer.database.write(author: "import") { _ in
                holding.signal()
                release.wait()
            }
            ended.signal()
        }
        holding.wait()
        let before = try harness.store.tripCount(in: .fallGetaways)
        var browser = harness.browser()
        _ = try browser.get("/trips/new")
        let trip = [("name", "Kyoto in autumn"), ("subtitle", "Maple leaves"), ("collection", TripCollection.fallGetaways.rawValue)]
        let pages = [try browser.post("/trips", form: trip),
                     try browser.post("/trips/1", form: trip + harness.formVersions(ofTrip: 1)),
                     try browser.post("/trips/1/activities", form: [("name", "Temple walk at dawn")])]
        for page in pages {
            #expect(page.status == 503 && page.header("Retry-After") == "2")
            #expect(page.text.contains("The wishlist is busy importing; try again in a moment."))
        }
        #expect(pages[0].text.contains("value=\"Kyoto in autumn\"") && pages[0].text.contains("value=\"Maple leaves\""))
        #expect(pages[1].text.contains("value=\"Kyoto in autumn\""))
        #expect(pages[2].text.contains("Temple walk at dawn"))
        // A change without a form of its own gets the error page, with the same words.
        let delete = try browser.post("/trips/1/delete", form: [])
        #expect(delete.status == 503 && delete.text.contains("busy importing"))

        release.signal()
        ended.wait()
        #expect(try browser.post("/trips", form: trip).status == 303)
        #expect(try harness.store.tripCount(in: .fallGetaways) == before + 1)
    }
}
