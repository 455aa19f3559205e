import Testing
@testable import HTTPServer

/// Download names made from a title a person wrote (RFC 6266): safe in any browser and any
/// file system, readable in the title's own script, with an ASCII fallback.
@Suite struct ContentDispositionTests {
    func header(_ title: String) -> String {
        ContentDisposition.attachment(title: title, fileExtension: "gpx", fallback: "trip-7")
    }

    @Test func anASCIITitleIsItsOwnName() {
        #expect(header("Japan Mystique") == #"attachment; filename="Japan-Mystique.gpx""#)
        #expect(header("  road_trip -- 2027!  ") == #"attachment; filename="road_trip-2027.gpx""#)
    }

    @Test func accentsAreKeptInUTF8AndFoldedInTheFallback() {
        #expect(header("São Paulo & Águas") ==
            #"attachment; filename="Sao-Paulo-Aguas.gpx"; filename*=UTF-8''S%C3%A3o-Paulo-%C3%81guas.gpx"#)
        #expect(header("東京 2027") == #"attachment; filename="2027.gpx"; filename*=UTF-8''%E6%9D%B1%E4%BA%AC-2027.gpx"#)
    }

    /// Quotes, slashes, dots, controls and emoji never reach the name: no path, no broken header.
    @Test func aHostileTitleLeavesOnlyItsLettersAndDigits() {
        #expect(header(#"../"a\b"/c;d=e%41\#r\#n🎉"#) == #"attachment; filename="a-b-c-d-e-41.gpx""#)
        #expect(header("🎉🏄 \"/\\") == #"attachment; filename="trip-7.gpx""#, "nothing kept: the fallback")
        #expect(header(String(repeating: "ab ", count: 100)).count < 120, "at most 80 characters of the title")
    }
}
