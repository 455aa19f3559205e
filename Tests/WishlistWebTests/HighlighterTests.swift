import Testing
@testable import WishlistWeb

@Suite struct HighlighterTests {
    private func marked(_ name: String, _ query: String) -> String {
        Highlighter(query: query).segments(of: name).map { $0.isMatch ? "[\($0.text)]" : $0.text }.joined()
    }

    @Test func marksEveryMatchIgnoringCaseAndAccents() {
        #expect(marked("Café crawl in KYOTO", "cafe") == "[Café] crawl in KYOTO")
        #expect(marked("Café crawl in KYOTO", "kyoto") == "Café crawl in [KYOTO]")
        #expect(marked("Zürich, then zurich again", "ZÜRICH") == "[Zürich], then [zurich] again")
        #expect(marked("Lisbon", "porto") == "Lisbon")
    }

    @Test func marksEachWordOfTheQuery() {
        #expect(marked("Café Crawl in Zürich", "zurich CAFE") == "[Café] Crawl in [Zürich]")
        #expect(marked("Snorkel through the lava tubes", "kona snorkel") == "[Snorkel] through the lava tubes")
        #expect(marked("Point Reyes", "t r") == "Poin[t] [R]eyes")
        #expect(marked("Zürich", "zur rich") == "[Zürich]") // overlapping words mark their union
        #expect(marked("Crawl in, crawl out", "\"crawl in\"") == "[Crawl in], crawl out")
    }

    /// ASCII names take a byte-wise path; the rest go character by character. Both must agree.
    @Test func asciiAndAccentedNamesAreMarkedAlike() {
        #expect(marked("Kyoto bike tour, KYOTO again", "kyoto") == "[Kyoto] bike tour, [KYOTO] again")
        #expect(marked("Kyoto bike tour, KYŌTO again", "kyoto") == "[Kyoto] bike tour, [KYŌTO] again")
        #expect(marked("Cafe", "CAFÉ") == "[Cafe]")
        #expect(marked("Kraków, krakow", "ó") == "Krak[ó]w, krak[o]w")
        #expect(marked("Crème brûlée", "brulee") == "Crème [brûlée]")
        #expect(marked("aaaaa", "aa") == "[aaaa]a")
        #expect(marked("Point Reyes", "\"t r\"") == "Poin[t R]eyes")
        #expect(marked("Tom & \"Jerry\" <b>", "jerry\" <") == "Tom & \"[Jerry\"] [<]b>")
        #expect(marked("Lisbon", "") == "Lisbon")
        #expect(Highlighter(query: "a").segments(of: "").isEmpty)
    }
}
