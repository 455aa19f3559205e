import CZlib
import Testing
@testable import HTTPServer

@Suite struct SplicedBodyTests {
    static let placeholder = Array("{token-7}".utf8)

    /// zlib's own gzip decoder, which checks the CRC and length trailer too.
    static func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
        var stream = z_stream()
        try #require(czlib_inflate_init_gzip(&stream) == Z_OK)
        defer { inflateEnd(&stream) }
        var input = bytes
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        var status: Int32 = Z_OK
        input.withUnsafeMutableBufferPointer { input in
            stream.next_in = input.baseAddress
            stream.avail_in = uInt(input.count)
            repeat {
                let produced = chunk.withUnsafeMutableBufferPointer { chunk in
                    stream.next_out = chunk.baseAddress
                    stream.avail_out = uInt(chunk.count)
                    status = inflate(&stream, Z_NO_FLUSH)
                    return chunk.count - Int(stream.avail_out)
                }
                output += chunk[..<produced]
            } while status == Z_OK
        }
        try #require(status == Z_STREAM_END, "inflate ended with \(status)")
        #expect(stream.avail_in == 0, "bytes after the gzip member")
        return output
    }

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
        #expect(try Self.gunzip(body.gzipped(with: Array("T".utf8))) == Array(expected.utf8))
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
        #expect(try Self.gunzip(body.gzipped(with: values)) == Array(expected.utf8))
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
            #expect(try Self.gunzip(gzipped) == body.filled(with: value))
            #expect(gzipped.count < body.filled(with: value).count / 3 || value.count > 1_000)
        }
        // The second response reuses the compressed pieces and is the same bytes.
        #expect(body.gzipped(with: Array("x".utf8)) == body.gzipped(with: Array("x".utf8)))
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
