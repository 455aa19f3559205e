import HTTPServer
import Testing
@testable import WishlistWeb

@Suite struct RenderedPageTests {
    static let placeholder = "{token-7}"

    static func filled(_ html: String, token: String) -> String {
        var request = Request(method: .get, path: "/")
        request.csrfToken = token
        let page = RenderedPage(status: .ok, html: Array(html.utf8), placeholder: placeholder)
        guard case .bytes(let bytes) = page.response(for: request).body else { return "not bytes" }
        return String(decoding: bytes, as: UTF8.self)
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
    func everyPlaceholderAndNothingElseIsReplaced(html: String, expected: String) {
        #expect(Self.filled(html, token: "T") == expected)
    }

    @Test func aViewerWithoutATokenGetsEmptyFields() {
        var request = Request(method: .get, path: "/")
        request.csrfToken = nil
        let page = RenderedPage(status: .unprocessableContent, html: Array("<i>{token-7}</i>".utf8), placeholder: Self.placeholder)
        let response = page.response(for: request)
        #expect(response.status == .unprocessableContent)
        #expect(response.headers["Cache-Control"] == "no-cache")
        guard case .bytes(let bytes) = response.body else { Issue.record("not bytes"); return }
        #expect(bytes == Array("<i></i>".utf8))
    }
}
