import Foundation
import Glibc
import Synchronization
import Testing
import TestSupport
@testable import HTTPServer

/// The pieces of the per-request path that were rewritten for speed keep their results.
@Suite struct PerRequestPathTests {
    @Test func accessLogLineReadsAsBefore() {
        #expect(AccessLog.line(method: "GET", path: "/items/a b", status: 200, bytes: 20_429, nanoseconds: 150_000)
            == Array("GET /items/a b 200 20429 0.15ms\n".utf8))
        // Milliseconds print as the earlier `Double` rounded to hundredths did: 1.0, 0.5, 12.35.
        for nanoseconds: Int64 in [0, 4_000, 96_000, 500_000, 1_000_000, 1_234_000, 12_345_678, 99_996_000, 1_500_000_000] {
            let milliseconds = Double(nanoseconds) / 1e6
            let expected = "POST / 303 0 \((milliseconds * 100).rounded() / 100)ms\n"
            #expect(AccessLog.line(method: "POST", path: "/", status: 303, bytes: 0, nanoseconds: nanoseconds)
                == Array(expected.utf8), "\(nanoseconds) ns")
        }
    }

    @Test func cookieHeaderValue() {
        #expect(Cookie(name: "csrf_token", value: "abc", httpOnly: true, sameSite: .strict).headerValue
            == "csrf_token=abc; Path=/; HttpOnly; SameSite=Strict")
        #expect(Cookie(name: "s", value: "", path: "/app", maxAge: 0, httpOnly: false, sameSite: .none, secure: true).headerValue
            == "s=; Path=/app; Max-Age=0; SameSite=None; Secure")
        #expect(Cookie(name: "n", value: "v", maxAge: 43_200).headerValue == "n=v; Path=/; Max-Age=43200; HttpOnly; SameSite=Lax")
        #expect(Cookie(name: "n", value: "v", maxAge: -1).headerValue.contains("; Max-Age=-1;"))
    }

    @Test func cookiesParsedFromEveryCookieHeader() {
        var headers: HTTPHeaders = ["Cookie": " a=1; b = two words ;c=x=y;; flag; =nameless; a=second"]
        headers.add("cookie", "d=\u{e9}t\u{e9}; b=later")
        headers.add("X-Cookie", "e=5")
        let cookies = Request(method: .get, path: "/", headers: headers).cookies
        // The first of duplicate names wins; a pair needs an "="; spaces and tabs around are trimmed.
        #expect(cookies == ["a": "1", "b": "two words", "c": "x=y", "d": "\u{e9}t\u{e9}"])
        #expect(Request(method: .get, path: "/", headers: ["Cookie": ""]).cookies.isEmpty)
    }

    @Test func hostNameFromAuthority() {
        #expect(Request.hostName(fromAuthority: "127.0.0.1:8080") == "127.0.0.1")
        #expect(Request.hostName(fromAuthority: "LocalHost:80") == "localhost")
        #expect(Request.hostName(fromAuthority: "[::1]:8080") == "[::1]")
        #expect(Request.hostName(fromAuthority: "[::1") == "[")
        #expect(Request.hostName(fromAuthority: "wishful.local") == "wishful.local")
        #expect(Request.hostName(fromAuthority: "ÜBER.example:1") == "über.example")
        #expect(Request.hostName(fromAuthority: "") == "")
    }

    @Test func numericAddressOfIPv4AndIPv6() {
        func text(ofIPv4 dotted: String) -> String {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr(dotted)
            return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, numericAddress) }
        }
        for dotted in ["127.0.0.1", "0.0.0.0", "255.255.255.255", "10.200.3.45", "192.168.100.9"] {
            #expect(text(ofIPv4: dotted) == dotted)
        }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        #expect(withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, numericAddress) } == "::1")
    }

    @Test func secretTokensAreWellFormedAndDistinct() throws {
        let tokens = try (0..<50).map { _ in try SecretToken.make() }
        #expect(tokens.allSatisfy(SecretToken.isWellFormed))
        #expect(Set(tokens).count == tokens.count)
    }

    @Test func withoutRandomBytesATokenIsRefusedWith503() {
        do {
            _ = try SecretToken.make(from: { _, _ in
                errno = EIO
                return -1
            })
            Issue.record("a token was made without random bytes")
        } catch {
            #expect(error.status == .serviceUnavailable)
        }
    }

    @Test func securityHeadersKeepTheHandlersOwnAndAddTheRestOnce() throws {
        let handler = chain([SecurityHeaders()]) { _ in
            Response(headers: ["content-security-policy": "default-src 'none'", "Content-Type": "text/plain"],
                     body: .bytes(Array("ok".utf8)))
        }
        let response = try handler(Request(method: .get, path: "/"))
        #expect(response.headers.all("Content-Security-Policy") == ["default-src 'none'"])
        #expect(response.headers.all("X-Frame-Options") == ["DENY"])
        #expect(response.headers.fields.map(\.name) == ["content-security-policy", "Content-Type", "X-Content-Type-Options",
                                                        "Referrer-Policy", "X-Frame-Options"])
    }

    /// Bodies are handed to libmicrohttpd without a copy: one array shared by many concurrent
    /// responses (as a page cache would share it) arrives whole every time, also after the
    /// handler has changed its own copy.
    @Test func sharedBodyArrivesWholeOnEveryResponse() throws {
        let page = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try withServer(handler: { request in
            if request.path == "/empty" { return Response(body: .bytes([])) }
            guard request.path == "/changed" else { return Response(body: .bytes(page)) }
            var copy = page
            let response = Response(body: .bytes(copy))
            copy[0] ^= 0xff
            return response
        }) { server throws in
            let replies = Mutex<[[UInt8]]>([])
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                guard let client = try? SocketClient(port: server.port) else { return }
                for path in ["/", "/changed", "/"] {
                    if let reply = try? client.request("GET", path) { replies.withLock { $0.append(reply.body) } }
                }
            }
            let bodies = replies.withLock { $0 }
            #expect(bodies.count == 12)
            #expect(bodies.allSatisfy { $0 == page })
            let head = try SocketClient(port: server.port).request("HEAD", "/", expectBody: false)
            #expect(head.header("Content-Length") == "300000")
            let empty = try SocketClient(port: server.port).request("GET", "/empty")
            #expect(empty.status == 200 && empty.header("Content-Length") == "0" && empty.body.isEmpty)
        }
    }

    @Test func remoteAddressIsTheClients() throws {
        try withServer(handler: { request in .text(request.remoteAddress) }) { server throws in
            #expect(try SocketClient(port: server.port).request("GET", "/").text == "127.0.0.1")
        }
    }
}
