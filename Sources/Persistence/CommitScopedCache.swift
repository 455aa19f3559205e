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
public final class CommitScopedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        let value: Value
        let generation: UInt64
    }

    private struct State: ~Copyable {
        var entries: LeastRecentlyUsed<Key, Entry>
        var flights: [Key: Flight] = [:]
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
    private let cost: @Sendable (Value) -> Int
    private let state: Mutex<State>

    /// Keeps at most `capacity` values, together costing at most `maxCost` (by `cost`, such as
    /// their bytes); beyond that the least recently used go.
    public init(database: Database, capacity: Int, maxCost: Int = .max, cost: @escaping @Sendable (Value) -> Int = { _ in 0 }) {
        self.database = database
        self.cost = cost
        state = Mutex(State(entries: LeastRecentlyUsed(capacity: capacity, maxCost: maxCost)))
    }

    /// The value for `key` computed since the last commit, or `compute(kept)`'s result, kept;
    /// `kept` is the value computed before the last commit, if there is one still.
    /// `compute` must read everything it depends on from `database` and nothing else that changes.
    public func value(for key: Key, compute: (_ kept: Value?) throws -> Value) rethrows -> Value {
        let generation = database.generation
        let lookup = state.withLock { state -> Lookup in
            if let entry = state.entries.use(key, if: { $0.generation == generation }) {
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
            return .lead(flight, kept: state.entries.peek(key)?.value)
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
            store(value!, for: key, computedAt: generation)
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

    private func store(_ value: Value, for key: Key, computedAt generation: UInt64) {
        // A commit during `compute` leaves the value stale at once; it is kept all the same, as
        // the newest one the next computation can check against. Stale entries are not dropped
        // first when room is made: after each commit every entry is stale, and each is what its
        // page is checked against next.
        let entryCost = cost(value)
        state.withLock { state in
            state.entries.insert(Entry(value: value, generation: generation), cost: entryCost, for: key)
        }
    }

    /// What the values kept cost together (for tests).
    var totalCost: Int {
        state.withLock { $0.entries.totalCost }
    }
}
