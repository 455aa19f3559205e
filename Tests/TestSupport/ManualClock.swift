import Foundation
import HTTPServer
import Synchronization

/// A clock that moves only when a test says so: as instants for the server's sessions and
/// attempt windows, and as dates (from a fixed start) for the store's.
public final class ManualClock: Sendable {
    private let elapsed = Mutex(Duration.zero)
    private let startInstant = ContinuousClock.now
    public let startDate: Date

    /// 2026-05-28 20:26:40 UTC by default: any fixed moment, so pages and dates repeat exactly.
    public init(startingAt startDate: Date = Date(timeIntervalSince1970: 1_780_000_000)) {
        self.startDate = startDate
    }

    public var now: ContinuousClock.Instant { startInstant + elapsed.withLock { $0 } }

    public var date: Date {
        let components = elapsed.withLock { $0 }.components
        return startDate.addingTimeInterval(Double(components.seconds) + Double(components.attoseconds) / 1e18)
    }

    public var source: InstantSource { InstantSource { self.now } }

    public func advance(by duration: Duration) {
        elapsed.withLock { $0 += duration }
    }
}
