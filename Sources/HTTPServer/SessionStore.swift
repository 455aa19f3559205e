import Synchronization

/// Signed-in sessions, held in memory on the server: a random id per session with an expiry.
/// A restart signs everyone out, which is the safe direction. Event streams opened under a
/// session end with it.
final class SessionStore: Sendable {
    private let lifetime: Duration
    private let capacity: Int
    private let clock: InstantSource
    private let expiries = Mutex<[String: ContinuousClock.Instant]>([:])
    private let streams = Mutex<[String: [ObjectIdentifier: EventStream]]>([:])

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

    /// Ends the session, and every stream opened under it.
    func end(_ id: String) {
        _ = expiries.withLock { $0.removeValue(forKey: id) }
        let opened = streams.withLock { $0.removeValue(forKey: id) } ?? [:]
        for stream in opened.values { stream.close() }
    }

    /// Ties `stream` to the session `id`: it closes when the session is ended, and at its next
    /// heartbeat once the session has expired (or made room for a newer one).
    func tie(_ stream: EventStream, to id: String) {
        let key = ObjectIdentifier(stream)
        streams.withLock { $0[id, default: [:]][key] = stream }
        stream.onClose { [weak self] in
            self?.streams.withLock { streams in
                streams[id]?[key] = nil
                if streams[id]?.isEmpty == true { streams[id] = nil }
            }
        }
        stream.endsWhen { [weak self] in self?.isValid(id) != true }
    }
}
