import Dispatch
import Synchronization
import TestSupport
import Testing
@testable import HTTPServer

/// Handlers of uploads and writes run off the worker threads, a bounded number at a time.
@Suite struct HandlerQueueTests {
    /// Holds upload and write handlers until the test lets them go, and counts how many ran at once.
    final class Gate: Sendable {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        private let counts = Mutex((running: 0, peak: 0))

        var peak: Int { counts.withLock { $0.peak } }

        var handler: Handler {
            { request in
                guard !request.files.isEmpty || request.method == .post || request.method == .put else { return .text("page") }
                self.counts.withLock { $0.running += 1; $0.peak = max($0.peak, $0.running) }
                defer { self.counts.withLock { $0.running -= 1 } }
                self.entered.signal()
                // A bound, so a broken server fails the test instead of hanging it.
                _ = self.release.wait(timeout: .now() + 10)
                return .text("stored \(request.files.first?.fileName ?? request.path)")
            }
        }
    }

    static func sendUpload(named name: String, port: Int) throws -> SocketClient {
        let boundary = "----gate"
        let body = UploadTests.multipart(boundary: boundary, fields: [], file: ("photo", name, Array(repeating: 7, count: 4096)))
        let client = try SocketClient(port: port)
        try client.send("POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=\(boundary)\r\n"
            + "Content-Length: \(body.count)\r\n\r\n")
        try client.send(body)
        return client
    }

    @Test func getsOnTheSameWorkerThreadAreAnsweredWhileAnUploadIsProcessed() throws {
        let gate = Gate()
        try withServer(Server.Configuration(threadCount: 1), handler: gate.handler) { server in
            let upload = try Self.sendUpload(named: "lake.heic", port: server.port)
            #expect(gate.entered.wait(timeout: .now() + 5) == .success)
            // With the handler on the only worker thread, this read would time out.
            let page = try SocketClient(port: server.port).request("GET", "/")
            #expect(page.status == 200 && page.text == "page")
            gate.release.signal()
            let reply = try upload.readReply()
            #expect(reply.status == 200 && reply.text == "stored lake.heic")
        }
    }

    /// A write's commit waits for the disk; the other connections of its worker thread must not.
    @Test func getsOnTheSameWorkerThreadAreAnsweredWhileAWriteIsHandled() throws {
        let gate = Gate()
        try withServer(Server.Configuration(threadCount: 1), handler: gate.handler) { server in
            let write = try SocketClient(port: server.port)
            try write.send("POST /activities/7/complete HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 13\r\n\r\ncomplete=true")
            #expect(gate.entered.wait(timeout: .now() + 5) == .success)
            let page = try SocketClient(port: server.port).request("GET", "/")
            #expect(page.status == 200 && page.text == "page")
            gate.release.signal()
            #expect(try write.readReply().text == "stored /activities/7/complete")
        }
    }

    /// A file sent as the raw body (the API's photo PUT) is an upload too: it waits for the
    /// uploads' turn rather than taking a place of the writes.
    @Test func aLargeRawBodyWaitsInLineWithTheUploads() throws {
        let gate = Gate()
        try withServer(Server.Configuration(threadCount: 1, uploadConcurrency: 1, writeConcurrency: 2), handler: gate.handler) { server in
            let upload = try Self.sendUpload(named: "one.jpg", port: server.port)
            #expect(gate.entered.wait(timeout: .now() + 5) == .success)
            let photo = try SocketClient(port: server.port)
            let body = Array(repeating: UInt8(7), count: Server.uploadBodyBytes)
            try photo.send("PUT /api/trips/1/photo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: image/jpeg\r\n"
                + "Content-Length: \(body.count)\r\n\r\n")
            try photo.send(body)
            #expect(try SocketClient(port: server.port).request("GET", "/").status == 200)
            #expect(waitUntil { server.uploads.waitingCount == 1 }, "the raw photo waits in the uploads' line")
            #expect(server.writes.waitingCount == 0 && gate.peak == 1)
            gate.release.signal()
            #expect(try upload.readReply().text == "stored one.jpg")
            #expect(gate.entered.wait(timeout: .now() + 5) == .success)
            gate.release.signal()
            #expect(try photo.readReply().text == "stored /api/trips/1/photo")
        }
    }

    @Test func uploadsBeyondTheConcurrencyWaitInLine() throws {
        let gate = Gate()
        try withServer(Server.Configuration(threadCount: 1, uploadConcurrency: 1), handler: gate.handler) { server in
            let first = try Self.sendUpload(named: "one.jpg", port: server.port)
            #expect(gate.entered.wait(timeout: .now() + 5) == .success)
            let second = try Self.sendUpload(named: "two.jpg", port: server.port)
            #expect(try SocketClient(port: server.port).request("GET", "/").status == 200)
            #expect(waitUntil { server.uploads.waitingCount == 1 }, "the second upload waits in line")
            #expect(gate.peak == 1, "the second upload started while the first ran")
            gate.release.signal()
            #expect(try first.readReply().text == "stored one.jpg")
            #expect(gate.entered.wait(timeout: .now() + 5) == .success)
            gate.release.signal()
            #expect(try second.readReply().text == "stored two.jpg")
            #expect(gate.peak == 1)
        }
    }
}
