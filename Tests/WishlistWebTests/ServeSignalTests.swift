import Foundation
import Glibc
import Testing

/// `wishlist serve` stops on SIGTERM whatever signal mask its parent gave it.
@Suite struct ServeSignalTests {
    /// A parent whose thread blocks SIGTERM (a Swift runtime's threads block nearly every signal)
    /// passes the mask on: the server must unblock what it waits for, or it never stops.
    @Test func aServeStartedWithSIGTERMBlockedStopsOnSIGTERM() throws {
        var blocked = sigset_t(), previous = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        let serve: ServePasswordTests.ServeProcess
        do {
            defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
            serve = try ServePasswordTests.ServeProcess(arguments: [], environment: [:])
        }
        _ = try serve.readyPort()
        let start = ContinuousClock.now
        kill(serve.process.processIdentifier, SIGTERM)
        let (status, _) = serve.exit()
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(serve.process.terminationReason == .exit && status == 0)
    }
}
