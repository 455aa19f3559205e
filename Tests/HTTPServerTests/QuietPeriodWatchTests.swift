import Foundation
import Synchronization
import Testing
@testable import HTTPServer

@Suite struct QuietPeriodWatchTests {
    @Test func theActionRunsOnceForEachLullAfterRequests() throws {
        try withServer(handler: { _ in .text("ok") }) { server in
            let calls = Atomic<Int>(0)
            let watch = QuietPeriodWatch(server: server, period: .milliseconds(40)) { calls.add(1, ordering: .relaxed) }
            defer { watch.cancel() }
            usleep(200_000)
            #expect(calls.load(ordering: .relaxed) == 0, "a server that served nothing has nothing to give back")

            let client = try RawClient(port: server.port)
            for _ in 0..<3 { _ = try client.request("GET", "/") }
            #expect(server.requestCount == 3)
            usleep(300_000)
            #expect(calls.load(ordering: .relaxed) == 1)
            usleep(200_000)
            #expect(calls.load(ordering: .relaxed) == 1, "one lull, one call")

            _ = try client.request("GET", "/")
            usleep(300_000)
            #expect(calls.load(ordering: .relaxed) == 2)
        }
    }

    @Test func noCallsAfterCancel() throws {
        try withServer(handler: { _ in .text("ok") }) { server in
            let calls = Atomic<Int>(0)
            let watch = QuietPeriodWatch(server: server, period: .milliseconds(40)) { calls.add(1, ordering: .relaxed) }
            _ = try RawClient(port: server.port).request("GET", "/")
            watch.cancel()
            usleep(300_000)
            #expect(calls.load(ordering: .relaxed) == 0)
        }
    }
}
