import Foundation
import TestSupport
import Testing
@testable import HTTPServer

@Suite struct ErrorResponseTests {
    /// An error of some other layer that knows its answer, as the app's domain errors do.
    struct SlowDown: HTTPResponseError {
        var status: HTTPStatus { .tooManyRequests }
        var message: String { "Wait <a> minute." }
        var headers: HTTPHeaders { ["Retry-After": "60"] }
    }

    struct Gone: HTTPResponseError {
        var status: HTTPStatus { .notFound }
        var message: String { "Nothing here any more." }
    }

    @Test func anyConformingErrorIsAnsweredWithItsStatusMessageAndHeaders() throws {
        var router = Router()
        router.get("/slow") { _ in throw SlowDown() }
        router.get("/gone") { _ in throw Gone() }
        try withServer(handler: router.respond) { server throws in
            let slow = try SocketClient(port: server.port).request("GET", "/slow")
            #expect(slow.status == 429)
            #expect(slow.text.contains("Wait &lt;a&gt; minute."))
            #expect(slow.header("Retry-After") == "60")
            let gone = try SocketClient(port: server.port).request("GET", "/gone")
            #expect(gone.status == 404 && gone.text.contains("Nothing here any more."))
        }
    }

    @Test func errorPagesInsideTheChainSeeTheEnrichedRequestAndGetItsCookie() throws {
        let pages = ErrorPages { status, message, request in
            .text("\(status.code) \(message) token=\(request?.csrfToken ?? "")", status: status)
        }
        let handler = chain([SecurityHeaders(), CSRFProtection(), pages], to: Router().respond)
        try withServer(handler: handler) { server throws in
            let reply = try SocketClient(port: server.port).request("GET", "/nowhere")
            #expect(reply.status == 404)
            let cookie = try #require(reply.header("Set-Cookie"))
            let token = try #require(cookie.split(separator: ";").first?.split(separator: "=").last.map(String.init))
            #expect(reply.text == "404 There is no page at this address. token=\(token)")
            #expect(reply.headers.filter { $0.0.lowercased() == "content-security-policy" }.count == 1)
        }
    }

    /// A refusal thrown through `SecurityHeaders` carries its headers; a server page that applies
    /// them itself (as the app's does) must not get them twice.
    @Test func securityHeadersGoOnARefusalPageOnce() throws {
        let configuration = Server.Configuration(threadCount: 2, errorPage: { status, message, request in
            SecurityHeaders().applied(to: Server.plainErrorPage(status, message, request))
        })
        var router = Router()
        router.post("/items") { _ in .text("created") }
        try withServer(configuration, handler: chain([SecurityHeaders(), CSRFProtection()], to: router.respond)) { server throws in
            let refused = try SocketClient(port: server.port).request("POST", "/items")
            #expect(refused.status == 403)
            for name in ["Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "X-Frame-Options"] {
                #expect(refused.headers.filter { $0.0.lowercased() == name.lowercased() }.count == 1, "\(name)")
            }
        }
    }
}
