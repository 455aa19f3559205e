import Synchronization

/// Values computed from the database, each kept until the next commit: a read-mostly app can
/// answer repeated requests from memory and still never show data older than the last write.
///
/// An entry remembers the database `generation` loaded before it was computed; it is served
/// only while the generation is unchanged, so a commit (this process' own, as soon as `write`
/// returns, or another process', once the external-change watcher sees it) makes every entry
/// stale at once. Two threads that miss the same key at the same time both compute it.
public final class CommitScopedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        let value: Value
        let generation: UInt64
        var lastUse: UInt64
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var clock: UInt64 = 0
    }

    private let database: Database
    private let capacity: Int
    private let state = Mutex(State())

    /// Keeps at most `capacity` values; beyond that the least recently used go.
    public init(database: Database, capacity: Int) {
        precondition(capacity > 0, "a cache needs room for one value")
        self.database = database
        self.capacity = capacity
    }

    /// The value for `key` computed since the last commit, or `compute()`'s result, kept.
    /// `compute` must read everything it depends on from `database` and nothing else that changes.
    public func value(for key: Key, compute: () throws -> Value) rethrows -> Value {
        let generation = database.generation
        let cached = state.withLock { state -> Value? in
            guard let entry = state.entries[key], entry.generation == generation else { return nil }
            state.clock += 1
            state.entries[key]?.lastUse = state.clock
            return entry.value
        }
        if let cached { return cached }
        let value = try compute()
        store(value, for: key, computedAt: generation)
        return value
    }

    /// How many values are kept (current or stale).
    public var count: Int {
        state.withLock { $0.entries.count }
    }

    private func store(_ value: Value, for key: Key, computedAt generation: UInt64) {
        // A commit during `compute` makes the value stale already: keeping it would only evict a live one.
        guard generation == database.generation else { return }
        state.withLock { state in
            state.clock += 1
            if state.entries[key] == nil, state.entries.count >= capacity {
                makeRoom(in: &state.entries, currentGeneration: generation)
            }
            state.entries[key] = Entry(value: value, generation: generation, lastUse: state.clock)
        }
    }

    /// Stale entries go first (all of them: none can ever be served again); if that is not
    /// enough, the least recently used quarter goes at once, so the sort is paid once per
    /// `capacity / 4` insertions rather than a scan on each.
    private func makeRoom(in entries: inout [Key: Entry], currentGeneration: UInt64) {
        entries = entries.filter { $0.value.generation == currentGeneration }
        let keep = capacity - max(1, capacity / 4)
        guard entries.count > keep else { return }
        // Sorting the use times alone: sorting the entries would copy keys and values around.
        let newestDropped = entries.values.map(\.lastUse).sorted()[entries.count - keep - 1]
        entries = entries.filter { $0.value.lastUse > newestDropped }
    }
}
