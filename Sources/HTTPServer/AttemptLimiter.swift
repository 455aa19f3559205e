import Synchronization

/// Counts failed attempts per client in a sliding window: past the limit, the client waits
/// until its oldest failure leaves the window. Bounded in memory however many clients try.
final class AttemptLimiter: Sendable {
    private let limit: Int
    private let window: Duration
    private let maxClients: Int
    private let clock: InstantSource
    private let failures = Mutex<[String: [ContinuousClock.Instant]]>([:])

    init(limit: Int, window: Duration, maxClients: Int = 10_000, clock: InstantSource = .continuous) {
        self.limit = max(1, limit)
        self.window = window
        self.maxClients = maxClients
        self.clock = clock
    }

    /// How long `client` must wait before its next attempt; nil when it may try now.
    func waitTime(for client: String) -> Duration? {
        let now = clock.now()
        return failures.withLock { failures in
            let recent = (failures[client] ?? []).filter { now - $0 < window }
            failures[client] = recent.isEmpty ? nil : recent
            guard recent.count >= limit, let oldest = recent.first else { return nil }
            return window - (now - oldest)
        }
    }

    func recordFailure(for client: String) {
        let now = clock.now()
        failures.withLock { failures in
            if failures[client] == nil, failures.count >= maxClients {
                failures = failures.filter { now - ($0.value.last ?? now) < window }
                if failures.count >= maxClients, let any = failures.keys.first { failures[any] = nil }
            }
            // Only the latest `limit` failures decide the wait.
            failures[client] = Array(((failures[client] ?? []) + [now]).suffix(limit))
        }
    }

    /// Forgets the client's failures (after a success).
    func reset(for client: String) {
        _ = failures.withLock { $0.removeValue(forKey: client) }
    }
}

/// The latest `capacity` distinct strings inserted (the oldest is forgotten first).
final class RecentSet: Sendable {
    private let capacity: Int
    private let members = Mutex<[String]>([])

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    func contains(_ member: String) -> Bool {
        members.withLock { $0.contains(member) }
    }

    func insert(_ member: String) {
        members.withLock { members in
            members.removeAll { $0 == member }
            members.append(member)
            if members.count > capacity { members.removeFirst() }
        }
    }
}
