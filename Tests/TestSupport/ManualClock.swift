import HTTPServer
import Synchronization

/// A clock that moves only when a test says so, for sessions and attempt windows.
public final class ManualClock: Sendable {
    private let current = Mutex(ContinuousClock.now)

    public init() {}

    public var now: ContinuousClock.Instant { current.withLock { $0 } }

    public var source: InstantSource { InstantSource { self.now } }

    public func advance(by duration: Duration) {
        current.withLock { $0 += duration }
    }
}
