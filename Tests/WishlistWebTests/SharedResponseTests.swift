import HTTPServer
import Testing
@testable import WishlistWeb

@Suite struct SharedResponseTests {
    struct Sample: Encodable { let name: String }

    static let page = SharedResponse(status: .unprocessableContent,
                                     html: SplicedBody(splitting: Array("<i>{token-7}</i><b>{since-7}</b>".utf8),
                                                       at: [Array("{token-7}".utf8), Array("{since-7}".utf8)]),
                                     liveSince: 12)

    static func request(token: String?, acceptEncoding: String? = nil) -> Request {
        var headers = HTTPHeaders()
        if let acceptEncoding { headers["Accept-Encoding"] = acceptEncoding }
        var request = Request(method: .get, path: "/", headers: headers)
        request.csrfToken = token
        return request
    }

    @Test func theViewersTokenGoesInAndTheStatusStays() {
        let response = Self.page.response(for: Self.request(token: "T"))
        #expect(response.status == .unprocessableContent)
        #expect(response.headers["Cache-Control"] == "private, no-cache")
        #expect(response.headers["Vary"] == "Accept-Encoding")
        #expect(response.headers["Content-Encoding"] == nil)
        guard case .bytes(let bytes) = response.body else { Issue.record("not bytes"); return }
        #expect(bytes == Array("<i>T</i><b>12</b>".utf8))
    }

    /// A kept page found current after a commit is served with the newer live token, not drawn again.
    @Test func theLiveTokenIsFilledInFromTheResponse() {
        var moved = Self.page
        moved.liveSince = 99
        guard case .bytes(let bytes) = moved.response(for: Self.request(token: "T")).body else { Issue.record("not bytes"); return }
        #expect(bytes == Array("<i>T</i><b>99</b>".utf8))
    }

    @Test func aViewerWithoutATokenGetsEmptyFields() {
        guard case .bytes(let bytes) = Self.page.response(for: Self.request(token: nil)).body else { Issue.record("not bytes"); return }
        #expect(bytes == Array("<i></i><b>12</b>".utf8))
    }

    @Test func aBrowserThatTakesGzipGetsIt() {
        let response = Self.page.response(for: Self.request(token: "T", acceptEncoding: "gzip, deflate, br"))
        #expect(response.headers["Content-Encoding"] == "gzip")
        #expect(response.headers["Vary"] == "Accept-Encoding")
        guard case .bytes(let bytes) = response.body else { Issue.record("not bytes"); return }
        #expect(bytes == Self.page.body.gzipped(with: [Array("T".utf8), Array("12".utf8)]))
    }

    @Test func jsonHasNoPlaceForATokenAndIsGzippedLikePages() throws {
        let json = try SharedResponse(json: Sample(name: "Kyoto <3"))
        let plain = json.response(for: Self.request(token: "T"))
        #expect(plain.headers["Content-Type"] == "application/json")
        guard case .bytes(let bytes) = plain.body else { Issue.record("not bytes"); return }
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"name":"Kyoto <3"}"#)
        let gzipped = json.response(for: Self.request(token: "T", acceptEncoding: "gzip"))
        #expect(gzipped.headers["Content-Encoding"] == "gzip")
        guard case .bytes(let compressed) = gzipped.body else { Issue.record("not bytes"); return }
        #expect(compressed == json.body.gzipped(with: [[UInt8]]()))
    }
}
