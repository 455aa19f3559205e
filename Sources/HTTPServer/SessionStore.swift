import Synchronization

/// Signed-in sessions, held in memory on the server: a random id per session with an expiry.
/// A restart signs everyone out, which is the safe direction.
final class SessionStore: Sendable {
    private let lifetime: Duration
    private let capacity: Int
    private let clock: InstantSource
    private let expiries = Mutex<[String: ContinuousClock.Instant]>([:])

    init(lifetime: Duration, capacity: Int, clock: InstantSource = .continuous) {
        self.lifetime = lifetime
        self.capacity = max(1, capacity)
        self.clock = clock
    }

    /// Starts a session and returns its id.
    func create() throws(HTTPError) -> String {
        let id = try SecretToken.make()
        let now = clock.now()
        expiries.withLock { expiries in
            if expiries.count >= capacity {
                expiries = expiries.filter { $0.value > now }
            }
            // Still full of live sessions: the one closest to expiring makes room.
            if expiries.count >= capacity, let oldest = expiries.min(by: { $0.value < $1.value }) {
                expiries[oldest.key] = nil
            }
            expiries[id] = now + lifetime
        }
        return id
    }

    /// True while the session exists and has not expired.
    func isValid(_ id: String) -> Bool {
        guard SecretToken.isWellFormed(id) else { return false }
        return expiries.withLock { expiries in
            guard let expiry = expiries[id] else { return false }
            guard expiry > clock.now() else {
                expiries[id] = nil
                return false
            }
            return true
        }
    }

    func end(_ id: String) {
        _ = expiries.withLock { $0.removeValue(forKey: id) }
    }
}
