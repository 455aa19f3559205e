import Foundation
import TestSupport
import Testing
@testable import HTTPServer

/// Connections and event streams are bounded, per client address and in all, so a flood of
/// either leaves room to serve everyone else.
@Suite struct ResourceBoundsTests {
    static let handled: Handler = { _ in .text("handled") }

    /// Sockets left open cannot lock an address out: at its limit, a new connection closes the
    /// address's oldest one outside a request (libmicrohttpd's own limit refused the new one, so
    /// 256 idle sockets on loopback locked out every local browser).
    @Test func anAddressAtItsLimitMakesRoomByClosingItsOldestIdleConnection() throws {
        var configuration = Server.Configuration(threadCount: 2)
        configuration.maxConnectionsPerAddress = 4
        try withServer(configuration, handler: Self.handled) { server throws in
            // Each answered once, so all four are counted, in order, before the fifth comes.
            let idle = try (0..<4).map { _ in
                let client = try SocketClient(port: server.port)
                #expect(try client.request("GET", "/").text == "handled")
                return client
            }
            // An answer can arrive before its worker thread marks the request ended; on a busy
            // machine the oldest would then still count as inside its request and be spared.
            let deadline = Date().addingTimeInterval(5)
            while server.addressQuota.idleCount(of: "127.0.0.1") < 4, Date() < deadline { usleep(1000) }
            #expect(try SocketClient(port: server.port).request("GET", "/").text == "handled")
            #expect(idle[0].isClosedByServer())
            #expect(try idle[3].request("GET", "/").text == "handled")
        }
    }

    /// Connections inside a request (here event streams) are never closed to make room: the new
    /// connection is.
    @Test func anAddressWhoseConnectionsAreAllInARequestHasNoRoom() throws {
        var configuration = Server.Configuration(threadCount: 2)
        configuration.maxConnectionsPerAddress = 2
        let hub = EventStreamTests.Hub()
        try withServer(configuration, handler: hub.handler) { server throws in
            let streams = try (0..<2).map { _ in try EventStreamTests.openStream(port: server.port, timeoutSeconds: 1) }
            #expect(try SocketClient(port: server.port).isClosedByServer())
            #expect(streams.allSatisfy { !$0.isClosedByServer() })
        }
    }

    @Test func aConnectionThatSendsNoHeadIsClosedAfterTheHeaderTimeout() throws {
        var configuration = Server.Configuration(threadCount: 2)
        configuration.headerTimeout = 1
        configuration.connectionTimeout = 30
        try withServer(configuration, handler: Self.handled) { server throws in
            let silent = try SocketClient(port: server.port, timeoutSeconds: 4)
            let kept = try SocketClient(port: server.port, timeoutSeconds: 4)
            #expect(try kept.request("GET", "/").text == "handled")
            // Silent past the header timeout, well inside the connection timeout.
            #expect(silent.isClosedByServer())
            // A connection that sent its head has the longer timeout: still served.
            #expect(try kept.request("GET", "/").text == "handled")
        }
    }

    @Test(arguments: [(maxStreams: 2, perAddress: 10), (maxStreams: 10, perAddress: 2)])
    func streamsPastALimitAre503WithRetryAfter(_ limit: (maxStreams: Int, perAddress: Int)) throws {
        // Frequent heartbeats: they are how a departed client is noticed.
        var configuration = Server.Configuration(threadCount: 2, heartbeatInterval: 0.05)
        configuration.eventStreamLimits.maxStreams = limit.maxStreams
        configuration.eventStreamLimits.maxStreamsPerAddress = limit.perAddress
        let hub = EventStreamTests.Hub()
        try withServer(configuration, handler: hub.handler) { server throws in
            var open = try (0..<2).map { _ in try EventStreamTests.openStream(port: server.port) }
            let client = try SocketClient(port: server.port)
            let refused = try client.request("GET", "/events", headers: ["Accept": "text/event-stream"])
            #expect(refused.status == 503)
            #expect(refused.header("Retry-After") == "5")
            #expect(refused.text.contains("Too many live pages"))
            // The refused stream's close handlers ran (its subscriptions are released).
            #expect(waitUntil { hub.closed.load(ordering: .relaxed) == 1 })
            // Once one closes, a new stream is accepted again.
            // Released, so closed by its deinit (closing the descriptor here as well could close a
            // socket of the server's that had reused the number in the meantime).
            open.removeFirst()
            #expect(waitUntil { hub.closed.load(ordering: .relaxed) == 2 })
            #expect((try? EventStreamTests.openStream(port: server.port)) != nil)
        }
    }

    @Test func aStreamWhoseClientStopsReadingIsClosedWithinItsBudget() throws {
        var configuration = Server.Configuration(threadCount: 2)
        configuration.eventStreamLimits.maxPendingBytesPerStream = 64 * 1024
        configuration.eventStreamLimits.pendingBytesBudget = 96 * 1024
        let hub = EventStreamTests.Hub()
        try withServer(configuration, handler: hub.handler) { server throws in
            let notReading = try EventStreamTests.openStream(port: server.port)
            #expect(waitUntil { hub.count == 1 })
            let stream = try #require(hub.streams.withLock { $0.first })
            let event = ServerSentEvent(data: String(repeating: "x", count: 16 * 1024))
            // Bounded: the kernel's socket buffers take a few megabytes before anything waits here.
            var sent = 0
            while !stream.isClosed, sent < 2_000 {
                stream.send(event)
                sent += 1
                #expect(server.eventStreams.budget.usedBytes <= 96 * 1024)
            }
            #expect(stream.isClosed)
            // What it could not take is let go at once, not when the connection times out.
            #expect(server.eventStreams.budget.usedBytes == 0)
            _ = notReading
        }
    }
}
