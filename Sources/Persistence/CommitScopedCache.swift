import Foundation
import Synchronization

/// Values computed from the database, each kept until the next commit: a read-mostly app can
/// answer repeated requests from memory and still never show data older than the last write.
///
/// An entry remembers the database `generation` loaded before it was computed; it is served
/// only while the generation is unchanged, so a commit (this process' own, as soon as `write`
/// returns, or another process', once the external-change watcher sees it) makes every entry
/// stale at once. A stale entry stays, though, and is handed to the next computation of its key,
/// which may find it still holds (its data unchanged) and reuse what it made. Threads that miss
/// the same key at the same generation compute it once: the first computes, the others wait for
/// its value (a burst of requests right after a commit, or after a page was evicted, would
/// otherwise render it once per connection at the same time).
///
/// The values used since the previous commit, the `recomputedPerCommit` used last of them, are
/// computed again by the write itself, after its COMMIT and before the generation moves: until
/// then requests are served the values from before (the commit is not yet theirs to see), and
/// after it the new ones are there, so no request waits for a computation after a commit.
public final class CommitScopedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    public typealias Compute = @Sendable (_ kept: Value?) throws -> Value

    private struct Entry {
        let value: Value
        let generation: UInt64
        var lastUse: UInt64
        /// How the value was computed, to compute it again after a commit.
        let compute: Compute
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var clock: UInt64 = 0
        var flights: [Key: Flight] = [:]
        /// `clock` when the last commit's values were recomputed: entries used later are busy.
        var clockAtCommit: UInt64 = 0
        /// Computed after a commit, made current when the generation moves.
        var prepared: [(key: Key, value: Value)] = []
    }

    private enum Lookup { case hit(Value), wait(Flight), lead(Flight, kept: Value?) }

    /// One computation of a key under way, and the threads waiting for it.
    private final class Flight: @unchecked Sendable {
        let generation: UInt64
        let finished = NSCondition()
        /// Set under `finished`; nil after the computation threw (each waiter then computes).
        var value: Value?
        var isDone = false
        var waiters = 0

        init(generation: UInt64) { self.generation = generation }
    }

    private let database: Database
    private let capacity: Int
    private let recomputedPerCommit: Int
    private let state = Mutex(State())
    private let commitSubscription = Mutex<ObservationCancellable?>(nil)

    /// Keeps at most `capacity` values; beyond that the least recently used go. A commit
    /// computes again at most `recomputedPerCommit` values (the work a write adds is bounded).
    public init(database: Database, capacity: Int, recomputedPerCommit: Int = 4) {
        precondition(capacity > 0, "a cache needs room for one value")
        self.database = database
        self.capacity = capacity
        self.recomputedPerCommit = recomputedPerCommit
        let subscription = database.commitPreparers.add { [weak self] phase in self?.handle(phase) }
        commitSubscription.withLock { $0 = subscription }
    }

    deinit { commitSubscription.withLock { $0?.cancel() } }

    /// The value for `key` computed since the last commit, or `compute(kept)`'s result, kept;
    /// `kept` is the value computed before the last commit, if there is one still.
    /// `compute` must read everything it depends on from `database` and nothing else that changes;
    /// it is kept, and may be called again by a write of this process after its commit.
    public func value(for key: Key, compute: @escaping Compute) rethrows -> Value {
        let generation = database.generation
        let lookup = state.withLock { state -> Lookup in
            if let entry = state.entries[key], entry.generation == generation {
                state.clock += 1
                state.entries[key]?.lastUse = state.clock
                return .hit(entry.value)
            }
            if let flight = state.flights[key], flight.generation == generation {
                flight.finished.lock()
                flight.waiters += 1
                flight.finished.unlock()
                return .wait(flight)
            }
            let flight = Flight(generation: generation)
            state.flights[key] = flight
            return .lead(flight, kept: state.entries[key]?.value)
        }
        switch lookup {
        case .hit(let value):
            return value
        case .wait(let flight):
            flight.finished.lock()
            while !flight.isDone { flight.finished.wait() }
            let value = flight.value
            flight.finished.unlock()
            if let value { return value }
            return try compute(nil)
        case .lead(let flight, let kept):
            var value: Value?
            defer { land(flight, for: key, with: value) }
            value = try compute(kept)
            store(Entry(value: value!, generation: generation, lastUse: 0, compute: compute), for: key)
            return value!
        }
    }

    /// Hands the leader's value (nil when it threw) to the threads waiting for it.
    private func land(_ flight: Flight, for key: Key, with value: Value?) {
        state.withLock { state in
            if state.flights[key] === flight { state.flights[key] = nil }
        }
        flight.finished.lock()
        flight.value = value
        flight.isDone = true
        flight.finished.broadcast()
        flight.finished.unlock()
    }

    /// Threads waiting for another's computation of `key` (for tests).
    var waiterCount: Int {
        state.withLock { state in
            state.flights.values.reduce(0) { total, flight in
                flight.finished.lock()
                defer { flight.finished.unlock() }
                return total + flight.waiters
            }
        }
    }

    /// How many values are kept (current or stale).
    public var count: Int {
        state.withLock { $0.entries.count }
    }

    private func store(_ entry: Entry, for key: Key) {
        // A commit during `compute` leaves the value stale at once; it is kept all the same, as
        // the newest one the next computation can check against.
        state.withLock { state in
            state.clock += 1
            if state.entries[key] == nil, state.entries.count >= capacity {
                makeRoom(in: &state.entries)
            }
            var entry = entry
            entry.lastUse = state.clock
            state.entries[key] = entry
        }
    }

    private func handle(_ phase: CommitPhase) {
        switch phase {
        case .committed:
            let recentlyUsed = state.withLock { state in
                defer { state.clockAtCommit = state.clock }
                return state.entries.filter { $0.value.lastUse > state.clockAtCommit }
                    .sorted { $0.value.lastUse > $1.value.lastUse }.prefix(recomputedPerCommit)
            }
            // A value that fails to compute stays stale: its next request computes it (and meets the error).
            let prepared = recentlyUsed.compactMap { key, entry in (try? entry.compute(entry.value)).map { (key: key, value: $0) } }
            state.withLock { $0.prepared = prepared }
        case .published(let generation, let isAsExpected):
            state.withLock { state in
                defer { state.prepared = [] }
                guard isAsExpected else { return }
                for (key, value) in state.prepared {
                    // One evicted meanwhile stays out: it was the least used.
                    guard let entry = state.entries[key] else { continue }
                    state.entries[key] = Entry(value: value, generation: generation, lastUse: entry.lastUse, compute: entry.compute)
                }
            }
        case .databaseClosed:
            // The computations often hold what holds this cache (a page's holds its app).
            state.withLock { $0.entries = [:] }
        }
    }

    /// The least recently used quarter goes at once, so the sort is paid once per `capacity / 4`
    /// insertions rather than a scan on each. Stale entries are not dropped first: after each
    /// commit every entry is stale, and each is what its page is checked against next.
    private func makeRoom(in entries: inout [Key: Entry]) {
        let keep = capacity - max(1, capacity / 4)
        guard entries.count > keep else { return }
        // Sorting the use times alone: sorting the entries would copy keys and values around.
        let newestDropped = entries.values.map(\.lastUse).sorted()[entries.count - keep - 1]
        entries = entries.filter { $0.value.lastUse > newestDropped }
    }
}
