import Foundation
import Testing
@testable import Calendars

/// What libical writes for the app's calendars: RFC 5545 text, checked as text here (the
/// round trip through two independent parsers is in Tests/Browser/test_exports.py).
@Suite struct CalendarDocumentTests {
    private func text(_ document: CalendarDocument) -> String {
        String(decoding: document.encoded(), as: UTF8.self)
    }

    @Test func anAllDayEventEndsTheDayAfterItsLastDayAndATodoSaysWhenItWasDone() {
        var document = CalendarDocument(productID: "-//Test//EN", stamp: Date(timeIntervalSince1970: 1_800_000_000))
        document.events.append(CalendarEvent(uid: "trip-1@test", start: CalendarDay(year: 2027, month: 3, day: 28),
                                             end: CalendarDay(year: 2027, month: 3, day: 31), summary: "Kyoto; temples, \"gardens\"",
                                             location: "Kyoto, Japan", position: (35.02107, 135.75385), url: "http://localhost/trips/1"))
        document.todos.append(CalendarTodo(uid: "activity-7@test", relatedTo: "trip-1@test", summary: "Ryoan-ji",
                                           completed: Date(timeIntervalSince1970: 1_800_000_060)))
        document.todos.append(CalendarTodo(uid: "activity-8@test", relatedTo: "trip-1@test", summary: "Tea"))
        let ics = text(document)
        #expect(ics.hasPrefix("BEGIN:VCALENDAR\r\n") && ics.hasSuffix("END:VCALENDAR\r\n"))
        #expect(ics.contains("DTSTART;VALUE=DATE:20270328\r\n") && ics.contains("DTEND;VALUE=DATE:20270401\r\n"))
        #expect(ics.contains(#"SUMMARY:Kyoto\; temples\, "gardens""#), "text escaped as RFC 5545 says")
        #expect(ics.contains("GEO:35.021070;135.753850\r\n"))
        #expect(ics.contains("STATUS:COMPLETED\r\n") && ics.contains("COMPLETED:20270115T080100Z\r\n"))
        #expect(ics.contains("STATUS:NEEDS-ACTION\r\n") && ics.contains("RELATED-TO:trip-1@test\r\n"))
        #expect(ics.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 75 }, "lines folded")
    }

    /// A feed too large to hold is written as opening, parts, closing: the same bytes as whole.
    @Test func aDocumentWrittenInPartsIsTheWholeDocument() {
        var whole = CalendarDocument(productID: "-//Test//EN", stamp: Date(timeIntervalSince1970: 1_800_000_000))
        let days = (1...3).map { CalendarDay(year: 2027, month: 5, day: $0) }
        let events = days.enumerated().map { index, day in
            CalendarEvent(uid: "trip-\(index)@test", start: day, end: day, summary: "Trip \(index)",
                          revision: CalendarRevision(sequence: Int64(40 + index), lastModified: Date(timeIntervalSince1970: 1_800_000_000)))
        }
        whole.events = events
        var parts = CalendarDocument(productID: "-//Test//EN", stamp: Date(timeIntervalSince1970: 1_900_000_000)).opening
        for event in events {
            var part = CalendarDocument(productID: "-//Test//EN", stamp: Date(timeIntervalSince1970: 1_900_000_000))
            part.events = [event]
            parts += part.encodedComponents()
        }
        parts += CalendarDocument.closing
        #expect(parts == whole.encoded())
        let ics = text(whole)
        #expect(ics.contains("SEQUENCE:41\r\n") && ics.contains("LAST-MODIFIED:20270115T080000Z\r\n"))
        #expect(ics.contains("DTSTAMP:20270115T080000Z\r\n"), "a revised component is stamped with its last change")
    }

    /// A subscribed calendar is listed under its name and fetched again on the hint, in the
    /// properties of RFC 7986 and the `X-` ones older apps read.
    @Test func aCalendarCarriesItsNameAndRefreshHint() {
        var document = CalendarDocument(productID: "-//Test//EN", stamp: Date(timeIntervalSince1970: 1_800_000_000))
        document.name = "Porto; Lisbon, \"north\" \\ end\nline"
        document.refreshInterval = .seconds(3600)
        let ics = text(document)
        #expect(ics.contains("X-WR-CALNAME:Porto; Lisbon, \"north\" \\\\ end\\nline\r\n"), "one line, one value")
        #expect(ics.contains("\r\nNAME:Porto\\; Lisbon\\, \"north\" \\\\ end\\nline\r\n"))
        #expect(ics.contains("REFRESH-INTERVAL;VALUE=DURATION:PT1H\r\n") && ics.contains("X-PUBLISHED-TTL:PT1H\r\n"))
        #expect(text(CalendarDocument(productID: "-//Test//EN", stamp: .now)).contains("NAME") == false, "none unless given")
    }
}
