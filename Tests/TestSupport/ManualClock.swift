import Foundation
import HTTPServer
import Synchronization

/// A clock that moves only when a test says so: as instants for the server's sessions and
/// attempt windows, and as dates (from a fixed start) for the store's.
public final class ManualClock: Sendable {
    private let elapsed = Mutex(Duration.zero)
    private let startInstant = ContinuousClock.now
    public let startDate: Date

    /// By default 2026-05-28 at noon UTC, so pages and dates repeat exactly, and the day shown
    /// in the machine's time zone is the same from UTC−11 to UTC+11.
    public init(startingAt startDate: Date = Date(timeIntervalSince1970: 1_779_969_600)) {
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
