import Foundation
import Synchronization
import Testing
import TestSupport
@testable import HTTPServer

@Suite struct MiddlewareTests {
    /// A handler that counts the state changes that got through.
    final class Counter: Sendable {
        let value = Atomic(0)
    }

    static func app(_ counter: Counter) -> Handler {
        var router = Router()
        router.get("/form") { request in .text(request.csrfToken ?? "none") }
        router.post("/change") { _ in
            counter.value.add(1, ordering: .relaxed)
            return .redirect(to: "/form")
        }
        return chain([HostValidation(additionalHosts: ["wishful.local"]), SecurityHeaders(), CSRFProtection()],
                     to: router.respond)
    }

    @Test func foreignHostIs421AndLocalNamesPass() throws {
        try withServer(handler: Self.app(Counter())) { server throws in
            let client = try SocketClient(port: server.port)
            #expect(try client.request("GET", "/form", headers: ["Host": "evil.com"]).status == 421)
            #expect(try SocketClient(port: server.port).request("GET", "/form", headers: ["Host": "evil.com:\(server.port)"]).status == 421)
            for host in ["localhost:\(server.port)", "127.0.0.1", "[::1]:\(server.port)", "WISHFUL.local"] {
                #expect(try SocketClient(port: server.port).request("GET", "/form", headers: ["Host": host]).status == 200)
            }
        }
    }

    @Test func securityHeadersOnPagesAndErrorPages() throws {
        try withServer(handler: Self.app(Counter())) { server throws in
            let client = try SocketClient(port: server.port)
            for reply in [try client.request("GET", "/form"), try client.request("GET", "/missing")] {
                #expect(reply.header("Content-Security-Policy") == SecurityHeaders.defaultContentSecurityPolicy)
                #expect(reply.header("X-Content-Type-Options") == "nosniff")
                #expect(reply.header("X-Frame-Options") == "DENY")
                #expect(reply.header("Referrer-Policy") == "same-origin")
            }
        }
    }

    @Test func aLinkFromAnotherSiteKeepsTheTokenOfTheOwnersOpenTab() throws {
        let counter = Counter()
        try withServer(handler: Self.app(counter)) { server throws in
            let client = try SocketClient(port: server.port)
            let tab = try client.request("GET", "/form")
            let setCookie = try #require(tab.header("Set-Cookie"))
            let token = tab.text
            // A browser sends the cookie on a top-level navigation from another site unless it is
            // SameSite=Strict; whatever the answer sets replaces the cookie in every tab.
            var arrival = ["Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"]
            if !setCookie.contains("SameSite=Strict") { arrival["Cookie"] = "csrf_token=\(token)" }
            let linked = try client.request("GET", "/form", headers: arrival)
            let cookieNow = linked.header("Set-Cookie").flatMap { $0.split(separator: ";").first }.map(String.init)
                ?? "csrf_token=\(token)"

            let form = ["Content-Type": "application/x-www-form-urlencoded", "Cookie": cookieNow]
            #expect(try client.request("POST", "/change", headers: form, body: Array("_csrf=\(token)".utf8)).status == 303)
            // The cookie a cross-site navigation carries does not let another site post.
            let forged = form.merging(["Sec-Fetch-Site": "cross-site"]) { $1 }
            #expect(try client.request("POST", "/change", headers: forged, body: Array("_csrf=\(token)".utf8)).status == 403)
            #expect(counter.value.load(ordering: .relaxed) == 1)
        }
    }

    @Test func csrfTokenRequiredForStateChanges() throws {
        let counter = Counter()
        try withServer(handler: Self.app(counter)) { server throws in
            let client = try SocketClient(port: server.port)
            let page = try client.request("GET", "/form")
            let cookie = try #require(page.header("Set-Cookie"))
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"))
            let token = page.text
            #expect(cookie.hasPrefix("csrf_token=\(token);") && token.count == 64)

            let form = ["Content-Type": "application/x-www-form-urlencoded", "Cookie": "csrf_token=\(token)"]
            #expect(try client.request("POST", "/change", headers: form, body: Array("a=1".utf8)).status == 403)
            let wrong = String(repeating: "0", count: 64)
            #expect(try client.request("POST", "/change", headers: form, body: Array("_csrf=\(wrong)".utf8)).status == 403)
            #expect(counter.value.load(ordering: .relaxed) == 0)

            #expect(try client.request("POST", "/change", headers: form, body: Array("_csrf=\(token)".utf8)).status == 303)
            var viaHeader = form
            viaHeader["X-CSRF-Token"] = token
            #expect(try client.request("POST", "/change", headers: viaHeader).status == 303)
            #expect(counter.value.load(ordering: .relaxed) == 2)
        }
    }

    @Test func crossSiteRequestsRefusedEvenWithToken() throws {
        let counter = Counter()
        try withServer(handler: Self.app(counter)) { server throws in
            let client = try SocketClient(port: server.port)
            let token = try client.request("GET", "/form").text
            let headers = ["Cookie": "csrf_token=\(token)", "X-CSRF-Token": token]
            for extra in [["Sec-Fetch-Site": "cross-site"], ["Sec-Fetch-Site": "same-site"],
                          ["Origin": "http://evil.com"], ["Origin": "null"]] {
                let reply = try client.request("POST", "/change", headers: headers.merging(extra) { $1 })
                #expect(reply.status == 403, "\(extra)")
            }
            #expect(counter.value.load(ordering: .relaxed) == 0)
            let sameOrigin = ["Sec-Fetch-Site": "same-origin", "Origin": "http://127.0.0.1"]
            #expect(try client.request("POST", "/change", headers: headers.merging(sameOrigin) { $1 }).status == 303)
            #expect(counter.value.load(ordering: .relaxed) == 1)
        }
    }
}
