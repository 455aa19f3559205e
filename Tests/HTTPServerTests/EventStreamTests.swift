import Dispatch
import Foundation
import Synchronization
import Testing
import TestSupport
@testable import HTTPServer

@Suite struct EventStreamTests {
    /// Streams the handler has opened, for the test to send to.
    final class Hub: Sendable {
        let streams = Mutex<[EventStream]>([])
        let closed = Atomic(0)

        var handler: Handler {
            { [self] _ in
                let stream = EventStream()
                stream.onClose { self.closed.add(1, ordering: .relaxed) }
                streams.withLock { $0.append(stream) }
                return .eventStream(stream)
            }
        }

        var count: Int { streams.withLock { $0.count } }

        func broadcast(_ event: ServerSentEvent) {
            EventStream.broadcast(event, to: streams.withLock { $0 })
        }
    }

    static func openStream(port: Int, timeoutSeconds: Int = 5) throws -> SocketClient {
        try SocketClient.openEvents("/events", port: port, timeoutSeconds: timeoutSeconds)
    }

    @Test func encodingKeepsUserTextInsideDataLines() {
        let event = ServerSentEvent(id: "7\nevent: x", event: "badge", data: "one\r\ndata: two\nevent: evil\rthree", retry: 3000)
        #expect(String(decoding: event.encoded, as: UTF8.self)
            == "id: 7event: x\nevent: badge\nretry: 3000\ndata: one\ndata: data: two\ndata: event: evil\ndata: three\n\n")
    }

    /// A waiting stream's client that leaves is noticed at once, not at the next heartbeat: the
    /// stream ends and no longer counts against its address's limit.
    @Test func aClientThatLeavesEndsItsStreamAtOnce() throws {
        let hub = Hub()
        var configuration = Server.Configuration(threadCount: 2)
        configuration.heartbeatInterval = 60
        try withServer(configuration, handler: hub.handler) { server throws in
            var client: SocketClient? = try Self.openStream(port: server.port)
            #expect(waitUntil { hub.count == 1 })
            hub.broadcast(ServerSentEvent(id: "1", event: "update", data: "x"))
            _ = try client?.readEvents(until: "\n\n")  // sent: the stream waits for the next event
            client = nil
            #expect(waitUntil { hub.closed.load(ordering: .relaxed) == 1 })
            #expect(server.eventStreams.isEmpty)
        }
    }

    @Test func eventSentFromAnotherThreadReachesTheClient() throws {
        let hub = Hub()
        try withServer(handler: hub.handler) { server throws in
            let client = try Self.openStream(port: server.port)
            #expect(waitUntil { hub.count == 1 })
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) {
                hub.broadcast(ServerSentEvent(id: "1", event: "update", data: "hello\nworld"))
            }
            let text = try client.readEvents(until: "\n\n")
            #expect(text.hasSuffix("id: 1\nevent: update\ndata: hello\ndata: world\n\n"))
        }
    }

    @Test func anEventReachesItsStreamWhileTheServerThreadIsBusy() throws {
        // One server thread, held by a slow request: an idle stream's event is written by its
        // sender, not queued behind the thread (as 10,000 resumed connections were behind a commit).
        let hub = Hub()
        let slowStarted = Atomic(false)
        let release = DispatchSemaphore(value: 0)
        let handler: Handler = { request in
            guard request.path == "/slow" else { return try hub.handler(request) }
            slowStarted.store(true, ordering: .relaxed)
            release.wait()
            return .text("done")
        }
        try withServer(.init(threadCount: 1), handler: handler) { server throws in
            defer { release.signal() }
            let client = try Self.openStream(port: server.port, timeoutSeconds: 2)
            #expect(waitUntil { hub.count == 1 })
            hub.broadcast(ServerSentEvent(data: "first"))
            _ = try client.readEvents(until: "data: first\n\n")
            let slow = try SocketClient(port: server.port)
            try slow.send("GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(waitUntil { slowStarted.load(ordering: .relaxed) })
            hub.broadcast(ServerSentEvent(data: "while busy"))
            #expect(try client.readEvents(until: "\n\n") == "data: while busy\n\n")
        }
    }

    @Test func anEventPartlyWrittenToStalledStreamsStaysOneCopy() throws {
        let hub = Hub()
        var configuration = Server.Configuration(threadCount: 2)
        configuration.eventStreamLimits.maxPendingBytesPerStream = 16 << 20
        try withServer(configuration, handler: hub.handler) { server throws in
            // Clients that never read: each socket takes part of the event, the rest waits.
            let clients = try (0..<4).map { _ in try Self.openStream(port: server.port) }
            #expect(waitUntil { hub.count == clients.count })
            let event = ServerSentEvent(data: String(repeating: "x", count: 8 << 20))
            hub.broadcast(event)
            let streams = hub.streams.withLock { $0 }
            let storage = streams.map(\.pendingEventStorage)
            #expect(streams.allSatisfy { $0.pendingByteCount > 0 && $0.pendingByteCount < event.encoded.count })
            #expect(storage.allSatisfy { $0.count == 1 })
            #expect(Set(storage.compactMap(\.first)).count == 1)
        }
    }

    @Test func thousandIdleStreamsNeedNoThreadsAndAllGetABroadcast() throws {
        let hub = Hub()
        // All from one address, past the limits that stop a flood.
        var configuration = Server.Configuration(threadCount: 2)
        configuration.maxConnectionsPerAddress = 1100
        configuration.eventStreamLimits.maxStreams = 1000
        configuration.eventStreamLimits.maxStreamsPerAddress = 1000
        try withServer(configuration, handler: hub.handler) { server throws in
            let threadsBefore = try Self.threadCount()
            let clients = try (0..<1000).map { _ in try Self.openStream(port: server.port) }
            #expect(waitUntil { hub.count == 1000 })
            let threadsWithStreams = try Self.threadCount()
            #expect(threadsWithStreams - threadsBefore < 5, "threads: \(threadsBefore) → \(threadsWithStreams)")
            hub.broadcast(ServerSentEvent(event: "news", data: "to everyone"))
            var received = 0
            for client in clients where try client.readEvents(until: "\n\n").contains("data: to everyone\n\n") {
                received += 1
            }
            #expect(received == 1000)
        }
    }

    @Test func departedClientIsNoticedByHeartbeatAndFiresOnClose() throws {
        let hub = Hub()
        let configuration = Server.Configuration(threadCount: 2, heartbeatInterval: 0.05)
        try withServer(configuration, handler: hub.handler) { server throws in
            var client: SocketClient? = try Self.openStream(port: server.port)
            let stream = try #require(waitUntil { hub.count == 1 } ? hub.streams.withLock { $0.first } : nil)
            #expect(try client?.readEvents(until: ": heartbeat\n\n") != nil)
            #expect(!stream.isClosed)
            client = nil
            #expect(waitUntil { hub.closed.load(ordering: .relaxed) == 1 })
            #expect(stream.isClosed)
            _ = client
        }
    }

    @Test func closingAStreamSendsWhatWasQueuedThenEndsTheConnection() throws {
        let hub = Hub()
        try withServer(handler: hub.handler) { server throws in
            let client = try Self.openStream(port: server.port)
            #expect(waitUntil { hub.count == 1 })
            hub.broadcast(ServerSentEvent(data: "last"))
            hub.streams.withLock { $0[0].close() }
            #expect(try client.readEvents(until: "data: last\n\n").hasSuffix("data: last\n\n"))
            // The body is unframed (the stream writes to the socket itself), so it ends with the connection.
            #expect(client.streamHead?.header("Transfer-Encoding") == nil)
            #expect(try client.readStreamBytes() == nil)
            #expect(waitUntil { hub.closed.load(ordering: .relaxed) == 1 })
        }
    }

    @Test func stopWithOpenStreamsEndsThemGracefully() throws {
        let hub = Hub()
        let server = Server(configuration: .init(threadCount: 2), responder: hub.handler)
        try server.start()
        let clients = try (0..<5).map { _ in try Self.openStream(port: server.port) }
        #expect(waitUntil { hub.count == 5 })
        server.stop()
        #expect(hub.closed.load(ordering: .relaxed) == 5)
        #expect(hub.streams.withLock { $0.allSatisfy(\.isClosed) })
        for client in clients {
            #expect(client.isClosedByServer() || (try? client.readStreamBytes()) == .some(nil))
        }
        // Sending after the stop is harmless.
        hub.broadcast(ServerSentEvent(data: "too late"))
    }

    static func threadCount() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Threads:") })
        return try #require(Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)))
    }

    /// Sends three buffers' worth of events, a little at a time as the client reads them.
    final class Backlog: Sendable {
        static let events = (0..<48).map { ServerSentEvent(id: String($0), event: "part", data: String(repeating: "x", count: 64 * 1024)) }
        let stream: EventStream
        let sent = Mutex(0)

        init(_ stream: EventStream) { self.stream = stream }

        func sendWhatFits() {
            sent.withLock { sent in
                while sent < Self.events.count, stream.pendingByteCount < stream.maxPendingBytes / 2 {
                    stream.send(Self.events[sent])
                    sent += 1
                }
                if sent < Self.events.count { stream.whenDrained { self.sendWhatFits() } }
            }
        }
    }

    @Test func aProducerPacedByWhenDrainedSendsMoreThanTheBufferWithoutBeingDropped() throws {
        let hub = Hub()
        try withServer(handler: hub.handler) { server throws in
            let client = try Self.openStream(port: server.port)
            let stream = try #require(waitUntil { hub.count == 1 } ? hub.streams.withLock { $0.first } : nil)
            Backlog(stream).sendWhatFits()
            let expected = Backlog.events.reduce(0) { $0 + $1.encoded.count }
            #expect(expected > 2 * stream.maxPendingBytes)
            var received = 0
            while received < expected, let chunk = try client.readStreamBytes() { received += chunk.count }
            #expect(received == expected)
            #expect(!stream.isClosed)
        }
    }
}
