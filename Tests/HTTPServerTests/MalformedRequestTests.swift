import Foundation
import Synchronization
import Testing
import TestSupport
@testable import HTTPServer

/// Broken HTTP from raw sockets: each gets a clear 4xx (or, where libmicrohttpd gives up on the
/// bytes, a closed connection), never reaches a handler, and the server keeps serving.
@Suite struct MalformedRequestTests {
    final class Calls: Sendable {
        let count = Atomic(0)
    }

    static func handler(_ calls: Calls) -> Handler {
        { _ in
            calls.count.add(1, ordering: .relaxed)
            return .text("handled")
        }
    }

    /// Sends `bytes` on a fresh connection and returns the status of the reply (nil when the
    /// server closed the connection without one).
    static func status(of bytes: [UInt8], port: Int) throws -> Int? {
        let client = try SocketClient(port: port)
        try? client.send(bytes)
        return try? client.readReply().status
    }

    /// Runs `body`, then checks that no handler ran and that a normal request is still served.
    static func expectRefusedWithoutHandling(configuration: Server.Configuration = Server.Configuration(threadCount: 2),
                                             _ body: (Int) throws -> Void) throws {
        let calls = Calls()
        try withServer(configuration, handler: handler(calls)) { server throws in
            try body(server.port)
            #expect(calls.count.load(ordering: .relaxed) == 0)
            #expect(try SocketClient(port: server.port).request("GET", "/").text == "handled")
        }
    }

    static func request(_ head: String, body: [UInt8] = []) -> [UInt8] {
        Array(head.utf8) + body
    }

    @Test(arguments: [
        "GET  HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        "GET / HTTP/1.1 trailing\r\nHost: 127.0.0.1\r\n\r\n",
        "\u{0}\u{1} / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        "GET /\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nA header without a colon\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ten\r\n\r\n",
        // Forms two readers of the same bytes (a proxy and this server) could take differently,
        // seeing a body or a host the other does not: request smuggling.
        "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc",
        "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\nContent-Length: 5\r\n\r\nabcde",
        "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding : chunked\r\nContent-Length: 3\r\n\r\nabc",
        "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padded\t: 1\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n",
        // A NUL inside a value cannot be tested: libmicrohttpd 0.9.75 hands over the value cut at
        // the NUL, with a size to match; the check of sizes stands for the versions that do not.
    ])
    func malformedRequestLinesAndHeadersAre400(_ text: String) throws {
        try Self.expectRefusedWithoutHandling { port throws in
            #expect(try Self.status(of: Self.request(text), port: port) == 400)
        }
    }

    @Test(arguments: ["FOO", "\u{1}\u{2}", "TRACE"])
    func unknownMethodsAre501(_ method: String) throws {
        try Self.expectRefusedWithoutHandling { port throws in
            #expect(try Self.status(of: Self.request("\(method) / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"), port: port) == 501)
        }
    }

    @Test func aRequestLineOfOneWordIsDropped() throws {
        // libmicrohttpd closes the connection without a reply for a line it cannot split at all.
        try Self.expectRefusedWithoutHandling { port throws in
            let status = try Self.status(of: Self.request("GARBAGE\r\n\r\n"), port: port)
            #expect(status == nil || status == 400)
        }
    }

    @Test func hugeHeadersAre431() throws {
        try Self.expectRefusedWithoutHandling { port throws in
            let oneHuge = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: \(String(repeating: "a", count: 100_000))\r\n\r\n"
            #expect(try Self.status(of: Self.request(oneHuge), port: port) == 431)
            let many = (0..<5_000).map { "X-Header-\($0): value\r\n" }.joined()
            #expect(try Self.status(of: Self.request("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\(many)\r\n"), port: port) == 431)
        }
    }

    @Test func aQueryStringOf100000CharactersIs414AtOnce() throws {
        try Self.expectRefusedWithoutHandling { port throws in
            let target = "/search?q=" + String(repeating: "x", count: 100_000)
            #expect(try Self.status(of: Self.request("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"), port: port) == 414)
        }
    }

    @Test(arguments: [
        "5\r\nabc\r\n0\r\n\r\n",  // a chunk shorter than it says
        "zz\r\nabc\r\n0\r\n\r\n",  // a size that is not hex
        "ffffffffffffffffff\r\nabc\r\n",  // a size past any limit
    ])
    func chunkedBodiesAre411(_ chunks: String) throws {
        // No chunked body is accepted (its size is unknown until the end), so a broken one never
        // reaches the parser of a handler.
        try Self.expectRefusedWithoutHandling { port throws in
            let head = "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\n\r\n"
            #expect(try Self.status(of: Self.request(head + chunks), port: port) == 411)
        }
    }

    @Test func anOversizedBodyIs413BeforeItIsRead() throws {
        try Self.expectRefusedWithoutHandling(configuration: Server.Configuration(threadCount: 2, maxBodySize: 1024)) { port throws in
            let head = "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                + "Content-Length: 1025\r\n\r\n"
            #expect(try Self.status(of: Self.request(head), port: port) == 413)
        }
    }

    @Test(arguments: [
        ("multipart/form-data", "--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--x--\r\n"),  // no boundary
        ("multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nunfinished"),
        ("multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n\u{FF}\r\n--x--\r\n"),
        ("application/x-www-form-urlencoded", "name=%FF%FE"),
        ("application/x-www-form-urlencoded", "name=%E2%82"),
        ("application/x-www-form-urlencoded", "name=%00"),
        ("application/x-www-form-urlencoded", "name=%zz"),
    ])
    func brokenFormsAre400(_ contentType: String, _ body: String) throws {
        var bytes = Array(body.utf8)
        // U+00FF stands for a lone 0xFF byte, which a Swift string cannot hold.
        if let marker = bytes.firstRange(of: Array("\u{FF}".utf8)) { bytes.replaceSubrange(marker, with: [0xFF]) }
        try Self.expectRefusedWithoutHandling { port throws in
            let head = "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: \(contentType)\r\nContent-Length: \(bytes.count)\r\n\r\n"
            #expect(try Self.status(of: Self.request(head, body: bytes), port: port) == 400)
        }
    }

    @Test func invalidUTF8InARawFormBodyIs400() throws {
        try Self.expectRefusedWithoutHandling { port throws in
            let body: [UInt8] = Array("name=".utf8) + [0xC3, 0x28]
            let head = "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.count)\r\n\r\n"
            #expect(try Self.status(of: Self.request(head, body: body), port: port) == 400)
        }
    }

    @Test(arguments: ["/trips/%FF", "/%C3%28", "/a%00b", "/%", "trips"])
    func undecodablePathsAre400(_ path: String) throws {
        try Self.expectRefusedWithoutHandling { port throws in
            #expect(try Self.status(of: Self.request("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"), port: port) == 400)
        }
    }

    @Test func aStalledClientIsDisconnectedAndADribblingOneBlocksNoOne() throws {
        var configuration = Server.Configuration(threadCount: 1)
        configuration.headerTimeout = 1
        try withServer(configuration, handler: Self.handler(Calls())) { server throws in
            let stalled = try SocketClient(port: server.port, timeoutSeconds: 4)
            try stalled.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Partial: ")
            let dribbling = try SocketClient(port: server.port)
            try dribbling.send("GET / HTTP/1.1\r\n")
            for _ in 0..<5 {
                try dribbling.send("X: y\r\n")
                // Even with a single server thread, a complete request is answered (a blocked
                // one would leave the probe's 5 s receive timeout to throw).
                #expect(try SocketClient(port: server.port).request("GET", "/").text == "handled")
                Thread.sleep(forTimeInterval: 0.1)
            }
            // Closed by the 1 s connection timeout, without a reply, before its own 4 s one.
            #expect(stalled.isClosedByServer())
        }
    }
}
