import Foundation
import Testing
@testable import WishlistWeb

@Suite struct LongDateTextTests {
    @Test func spellsTheMonthOutInThisMachinesTimeZone() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let cases = [(2026, 11, 29, "November 29, 2026"), (2025, 1, 1, "January 1, 2025"), (2024, 2, 29, "February 29, 2024"),
                     (1999, 12, 31, "December 31, 1999")]
        for (year, month, day, expected) in cases {
            let noon = try #require(calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12)))
            #expect(noon.longDateText == expected)
            // Just before midnight still counts as that day here.
            #expect(noon.addingTimeInterval(11 * 3600 + 59 * 60).longDateText == expected)
        }
    }
}
