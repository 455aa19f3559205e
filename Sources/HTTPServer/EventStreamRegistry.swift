import Synchronization

/// How many event streams the server keeps open and how much they may hold unsent: a flood of
/// streams, or streams whose clients stopped reading, cost a bounded share of memory.
public struct EventStreamLimits: Sendable {
    /// Open streams in all; more are answered 503 with `Retry-After`.
    public var maxStreams = 500
    /// Open streams from one client address.
    public var maxStreamsPerAddress = 32
    /// Unsent bytes one stream may hold; a stream further behind is closed, and the browser
    /// reconnects and resumes from its Last-Event-ID.
    public var maxPendingBytesPerStream = 256 * 1024
    /// Unsent bytes all streams together may hold; past it, the stream that would add more is
    /// closed in the same way.
    public var pendingBytesBudget = 64 * 1024 * 1024
    /// Seconds a refused browser is told to wait before trying again.
    public var retryAfterSeconds = 5

    public init() {}
}

/// The unsent bytes of every stream, counted against `EventStreamLimits.pendingBytesBudget`.
final class PendingBytesBudget: Sendable {
    let limit: Int
    private let used = Atomic<Int>(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Takes `count` bytes from the budget; false (and nothing taken) when that would exceed it.
    func reserve(_ count: Int) -> Bool {
        let total = used.add(count, ordering: .relaxed).newValue
        guard total > limit else { return true }
        used.subtract(count, ordering: .relaxed)
        return false
    }

    /// Bytes queued before the stream was attached: counted, even past the limit.
    func take(_ count: Int) {
        used.add(count, ordering: .relaxed)
    }

    func release(_ count: Int) {
        used.subtract(count, ordering: .relaxed)
    }

    var usedBytes: Int { used.load(ordering: .relaxed) }
}

/// The server's open event streams, by client address, within `EventStreamLimits`.
final class EventStreamRegistry: Sendable {
    private struct State {
        var isStopping = false
        var open: [ObjectIdentifier: (stream: EventStream, address: String)] = [:]
        var countByAddress: [String: Int] = [:]
    }

    let limits: EventStreamLimits
    let budget: PendingBytesBudget
    private let state = Mutex(State())

    init(limits: EventStreamLimits) {
        self.limits = limits
        budget = PendingBytesBudget(limit: limits.pendingBytesBudget)
    }

    /// Registers a stream answering a request from `address`; the refusal when the server is
    /// stopping or the stream would pass a limit.
    func register(_ stream: EventStream, address: String) -> HTTPError? {
        state.withLock { state -> HTTPError? in
            guard !state.isStopping else { return HTTPError(.serviceUnavailable, "The server is shutting down.") }
            guard state.open.count < limits.maxStreams,
                  state.countByAddress[address, default: 0] < limits.maxStreamsPerAddress else {
                return HTTPError(.serviceUnavailable, "Too many live pages are open; this one will retry by itself.",
                                 headers: ["Retry-After": String(limits.retryAfterSeconds)])
            }
            state.open[ObjectIdentifier(stream)] = (stream, address)
            state.countByAddress[address, default: 0] += 1
            return nil
        }
    }

    func unregister(_ stream: EventStream) {
        state.withLock { state in
            guard let (_, address) = state.open.removeValue(forKey: ObjectIdentifier(stream)) else { return }
            let remaining = state.countByAddress[address, default: 1] - 1
            state.countByAddress[address] = remaining > 0 ? remaining : nil
        }
    }

    var all: [EventStream] { state.withLock { $0.open.values.map(\.stream) } }

    var isEmpty: Bool { state.withLock { $0.open.isEmpty } }

    /// Refuses new streams from now on (until `resume`) and returns the open ones to close.
    func beginStopping() -> [EventStream] {
        state.withLock { state in
            state.isStopping = true
            return state.open.values.map(\.stream)
        }
    }

    func resume() {
        state.withLock { $0.isStopping = false }
    }
}
