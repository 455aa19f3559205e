import Synchronization

/// How many bodies of one kind (calendar feeds, archive downloads) are sent at once, in all and
/// per client address: each kind has its own, so readers of one kind (however slow, however
/// many) never take what another kind needs. A body holds its `Claim` while it is being made.
public final class StreamBound: Sendable {
    public let total: Int
    public let perAddress: Int
    /// What a request past the bound is answered.
    private let refusal: HTTPError
    private let counts = Mutex<(total: Int, byAddress: [String: Int])>((0, [:]))

    public init(total: Int, perAddress: Int,
                refusal: HTTPError = HTTPError(.serviceUnavailable, "The server is too busy to send this; try again shortly.",
                                               headers: ["Retry-After": "5"])) {
        self.total = max(1, total)
        self.perAddress = max(1, perAddress)
        self.refusal = refusal
    }

    /// A place for a body sent to `address`, or the refusal when the kind or the address has none left.
    public func claim(address: String) throws(HTTPError) -> Claim {
        let taken = counts.withLock { counts in
            guard counts.total < total, counts.byAddress[address, default: 0] < perAddress else { return false }
            counts.total += 1
            counts.byAddress[address, default: 0] += 1
            return true
        }
        guard taken else { throw refusal }
        return Claim(bound: self, address: address)
    }

    /// Bodies being sent now (for tests and logs).
    public var inUse: Int { counts.withLock { $0.total } }

    fileprivate func release(address: String) {
        counts.withLock { counts in
            counts.total -= 1
            let left = counts.byAddress[address, default: 1] - 1
            counts.byAddress[address] = left > 0 ? left : nil
        }
    }

    /// A place taken; given back by `release()` or when the claim goes, whichever comes first.
    public final class Claim: Sendable {
        private let bound: StreamBound
        private let address: String
        private let isReleased = Atomic<Bool>(false)

        fileprivate init(bound: StreamBound, address: String) {
            self.bound = bound
            self.address = address
        }

        public func release() {
            guard !isReleased.exchange(true, ordering: .acquiringAndReleasing) else { return }
            bound.release(address: address)
        }

        deinit { release() }
    }
}
