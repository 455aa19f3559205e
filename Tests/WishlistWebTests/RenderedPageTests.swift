import HTTPServer
import Testing
@testable import WishlistWeb

@Suite struct RenderedPageTests {
    static let page = RenderedPage(status: .unprocessableContent, html: Array("<i>{token-7}</i>".utf8), placeholder: "{token-7}")

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
        #expect(response.headers["Cache-Control"] == "no-cache")
        #expect(response.headers["Vary"] == "Accept-Encoding")
        #expect(response.headers["Content-Encoding"] == nil)
        guard case .bytes(let bytes) = response.body else { Issue.record("not bytes"); return }
        #expect(bytes == Array("<i>T</i>".utf8))
    }

    @Test func aViewerWithoutATokenGetsEmptyFields() {
        guard case .bytes(let bytes) = Self.page.response(for: Self.request(token: nil)).body else { Issue.record("not bytes"); return }
        #expect(bytes == Array("<i></i>".utf8))
    }

    @Test func aBrowserThatTakesGzipGetsIt() {
        let response = Self.page.response(for: Self.request(token: "T", acceptEncoding: "gzip, deflate, br"))
        #expect(response.headers["Content-Encoding"] == "gzip")
        #expect(response.headers["Vary"] == "Accept-Encoding")
        guard case .bytes(let bytes) = response.body else { Issue.record("not bytes"); return }
        #expect(bytes == Self.page.body.gzipped(with: Array("T".utf8)))
    }
}
