import Foundation
import Synchronization
import Testing
import TestSupport
@testable import HTTPServer

/// Each `check()` is one period ending: the tests step the watch instead of waiting for its timer.
@Suite struct QuietPeriodWatchTests {
    static func serve(_ server: Server, requests: Int) {
        for _ in 0..<requests { _ = server.respond(to: Request(method: .get, path: "/")) }
    }

    @Test func theActionRunsOnceForEachLullAfterRequests() throws {
        let server = Server(responder: { _ in .text("ok") })
        let calls = Atomic<Int>(0)
        let watch = QuietPeriodWatch(requestCount: { server.requestCount }, period: nil) { calls.add(1, ordering: .relaxed) }
        for _ in 0..<3 { watch.check() }
        #expect(calls.load(ordering: .relaxed) == 0, "a server that served nothing has nothing to give back")

        Self.serve(server, requests: 3)
        #expect(server.requestCount == 3)
        watch.check()
        #expect(calls.load(ordering: .relaxed) == 0, "requests during the period: not quiet yet")
        watch.check()
        #expect(calls.load(ordering: .relaxed) == 1)
        watch.check()
        watch.check()
        #expect(calls.load(ordering: .relaxed) == 1, "one lull, one call")

        Self.serve(server, requests: 1)
        watch.check()
        watch.check()
        #expect(calls.load(ordering: .relaxed) == 2)
    }

    @Test func noCallsAfterCancel() throws {
        let server = Server(responder: { _ in .text("ok") })
        let calls = Atomic<Int>(0)
        let watch = QuietPeriodWatch(requestCount: { server.requestCount }, period: nil) { calls.add(1, ordering: .relaxed) }
        Self.serve(server, requests: 1)
        watch.check()
        watch.cancel()
        watch.check()
        #expect(calls.load(ordering: .relaxed) == 0)
    }
}
