import Testing
import WishlistCore
@testable import WishlistWeb

/// Every topic's id names it again, texts with spaces, dots and plus signs included, and the
/// Search and "Show all" pages follow their own.
@Suite struct LiveTopicTests {
    @Test(arguments: [
        LiveTopic.collectionListing(.summerVibes, pageNumber: 2),
        .searchResults(text: "", shown: ShownPages(trips: nil, activities: nil)),
        .searchResults(text: "Mt. Fuji + sake 100%", shown: ShownPages(trips: "2", activities: "3")),
    ])
    func theIdNamesTheTopicAgain(topic: LiveTopic) {
        #expect(!topic.id.contains(" "))
        #expect(LiveTopic(id: topic.id) == topic)
    }

    @Test func searchAndShowAllPagesFollowTheirResults() throws {
        let fixture = try AppHarness()
        let search = try fixture.client.get("/search?q=Mt.+Fuji&trips=2")
        #expect(search.text.contains(#"data-live-topics="search.2.1.Mt.+Fuji""#))
        let collection = try fixture.client.get("/collections/fallGetaways?page=1")
        #expect(collection.text.contains(#"data-live-topics="collection-listing.fallGetaways.1""#))
    }
}
