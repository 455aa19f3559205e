/// Where the server's timed parts (sessions, the attempt limiter) read the time: the
/// continuous clock, or in tests a clock that moves only when told, so expiry is tested
/// without waiting for it.
public struct InstantSource: Sendable {
    public let now: @Sendable () -> ContinuousClock.Instant

    public init(now: @escaping @Sendable () -> ContinuousClock.Instant) {
        self.now = now
    }

    public static let continuous = InstantSource { ContinuousClock.now }
}
