import Testing
import TestSupport
@testable import HTTPServer

@Suite struct SplicedBodyTests {
    static let placeholder = Array("{token-7}".utf8)

    @Test(arguments: [
        ("<p>{token-7}</p>", "<p>T</p>"),
        ("{token-7}", "T"),
        ("{token-7}{token-7}", "TT"),
        ("a{token-7}b{token-7}", "aTbT"),
        ("no placeholder { here", "no placeholder { here"),
        ("{token-{token-7}}", "{token-T}"),
        ("{token-", "{token-"),
        ("", ""),
        ("é {token-7} ü", "é T ü"),
    ])
    func everyPlaceAndNothingElseIsFilled(text: String, expected: String) throws {
        let body = SplicedBody(splitting: Array(text.utf8), at: Self.placeholder)
        #expect(body.filled(with: Array("T".utf8)) == Array(expected.utf8))
        #expect(try gunzip(body.gzipped(with: Array("T".utf8))) == Array(expected.utf8))
    }

    /// Two kinds of place (a page's CSRF token and its live-update token): each takes its own value.
    @Test(arguments: [
        ("<p>{token-7}</p><i>{since-7}</i>", "<p>T</p><i>42</i>"),
        ("{since-7}{token-7}{since-7}", "42T42"),
        ("{since-{token-7}}", "{since-T}"),
        ("none", "none"),
    ])
    func eachPlaceTakesTheValueOfItsPlaceholder(text: String, expected: String) throws {
        let body = SplicedBody(splitting: Array(text.utf8), at: [Self.placeholder, Array("{since-7}".utf8)])
        let values = [Array("T".utf8), Array("42".utf8)]
        #expect(body.filled(with: values) == Array(expected.utf8))
        #expect(try gunzip(body.gzipped(with: values)) == Array(expected.utf8))
    }

    @Test func gzipHoldsLargePiecesAndValuesLongerThanAStoredBlock() throws {
        var generator = SystemRandomNumberGenerator()
        // Compressible text with some noise, longer than deflate's 32 KB window.
        let words = ["trip", "kyoto", "<div class=\"card\">", "</div>", "activity", "\n"]
        let text = (0..<30_000).map { _ in words.randomElement(using: &generator)! }.joined(separator: " ")
        let pieces = [Array(text.utf8), [], Array(text.utf8.prefix(100)), Array(text.utf8)]
        let body = SplicedBody(pieces: pieces)
        for value in [[], Array("short".utf8), (0..<70_000).map { _ in UInt8.random(in: 0...255, using: &generator) }] {
            let gzipped = body.gzipped(with: value)
            #expect(try gunzip(gzipped) == body.filled(with: value))
            #expect(gzipped.count < body.filled(with: value).count / 3 || value.count > 1_000)
        }
        // The second response reuses the compressed pieces and is the same bytes.
        #expect(body.gzipped(with: Array("x".utf8)) == body.gzipped(with: Array("x".utf8)))
    }

    /// A page's kept fragments go in its places whole: their own places (the viewer's token) stay
    /// places, and the same fragment in two pages (or twice in one) is the same bytes.
    @Test func insertedBodiesKeepTheirPlacesAndAreSharedWhole() throws {
        let row = SplicedBody(splitting: Array("<form>{token-7}</form>".utf8), at: Self.placeholder)
        let empty = SplicedBody(pieces: [[]])
        let page = SplicedBody(splitting: Array("<body>{since-7}{frag-0}<hr>{frag-1}{frag-0}{token-7}</body>".utf8),
                               at: [Self.placeholder, Array("{since-7}".utf8), Array("{frag-0}".utf8), Array("{frag-1}".utf8)])
        let spliced = page.inserting([row, empty], atSlotsFrom: 2)
        let values = [Array("T".utf8), Array("42".utf8)]
        let expected = Array("<body>42<form>T</form><hr><form>T</form>T</body>".utf8)
        #expect(spliced.filled(with: values) == expected)
        #expect(try gunzip(spliced.gzipped(with: values)) == expected)
        // The row's piece is compressed once, whichever body sends it first.
        let alone = row.gzipped(with: [Array("T".utf8)])
        #expect(try gunzip(alone) == Array("<form>T</form>".utf8))
        #expect(try gunzip(page.inserting([row, row], atSlotsFrom: 2).gzipped(with: values))
                == Array("<body>42<form>T</form><hr><form>T</form><form>T</form>T</body>".utf8))
    }

    @Test(arguments: [
        ("gzip", true), ("gzip, deflate, br", true), ("br;q=1.0, gzip;q=0.8", true), ("GZIP", true),
        ("gzip;q=0", false), ("deflate", false), ("", false), ("*", true), ("*;q=0", false),
        ("*, gzip;q=0", false), ("identity", false), ("x-gzip", false),
    ])
    func acceptEncodingIsRead(header: String, accepted: Bool) {
        let request = Request(method: .get, path: "/", headers: ["Accept-Encoding": header])
        #expect(request.acceptsEncoding("gzip") == accepted)
    }

    @Test func noAcceptEncodingMeansIdentity() {
        #expect(!Request(method: .get, path: "/").acceptsEncoding("gzip"))
    }
}
