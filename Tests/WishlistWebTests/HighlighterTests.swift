import Testing
@testable import WishlistWeb

@Suite struct HighlighterTests {
    private func marked(_ name: String, _ query: String) -> String {
        Highlighter.segments(of: name, matching: query).map { $0.isMatch ? "[\($0.text)]" : $0.text }.joined()
    }

    @Test func marksEveryMatchIgnoringCaseAndAccents() {
        #expect(marked("Café crawl in KYOTO", "cafe") == "[Café] crawl in KYOTO")
        #expect(marked("Café crawl in KYOTO", "kyoto") == "Café crawl in [KYOTO]")
        #expect(marked("Zürich, then zurich again", "ZÜRICH") == "[Zürich], then [zurich] again")
        #expect(marked("Lisbon", "porto") == "Lisbon")
    }
}
