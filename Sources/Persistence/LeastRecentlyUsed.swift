/// Values by key within a count and a total cost (such as bytes); past either, the least
/// recently used go. Room is made a quarter at a time (of the count and of the cost), so the
/// sort is paid once per many insertions rather than a scan on each. Not synchronized: its
/// owner keeps it under a lock. Not copyable: its entries are objects, stamped in place.
public struct LeastRecentlyUsed<Key: Hashable, Value>: ~Copyable {
    /// A class: a use finds its entry once and stamps it in place, where a struct in the
    /// dictionary was looked up twice and copied out and back (a kept page on every request).
    private final class Entry {
        let value: Value
        var lastUse: UInt64
        let cost: Int

        init(value: Value, lastUse: UInt64, cost: Int) {
            self.value = value
            self.lastUse = lastUse
            self.cost = cost
        }
    }

    public let capacity: Int
    public let maxCost: Int
    public private(set) var totalCost = 0
    private var entries: [Key: Entry] = [:]
    private var clock: UInt64 = 0

    public init(capacity: Int, maxCost: Int = .max) {
        precondition(capacity > 0, "a cache needs room for one value")
        self.capacity = capacity
        self.maxCost = maxCost
    }

    public var count: Int { entries.count }

    /// The value kept for `key`, without counting it as a use.
    public func peek(_ key: Key) -> Value? { entries[key]?.value }

    /// The value kept for `key` when `isCurrent` accepts it, counted as a use.
    public mutating func use(_ key: Key, if isCurrent: (Value) -> Bool = { _ in true }) -> Value? {
        guard let entry = entries[key], isCurrent(entry.value) else { return nil }
        clock += 1
        entry.lastUse = clock
        return entry.value
    }

    /// Keeps `value` for `key` in place of any other, as the most recently used.
    public mutating func insert(_ value: Value, cost: Int, for key: Key) {
        clock += 1
        totalCost -= entries.removeValue(forKey: key)?.cost ?? 0
        if entries.count >= capacity || totalCost + cost > maxCost { makeRoom(for: cost) }
        entries[key] = Entry(value: value, lastUse: clock, cost: cost)
        totalCost += cost
    }

    /// The least recently used go until a quarter of the room is free, `incoming` aside.
    private mutating func makeRoom(for incoming: Int) {
        let keptCount = capacity - max(1, capacity / 4)
        let keptCost = maxCost - maxCost / 4 - incoming
        var count = entries.count
        var cost = totalCost
        var newestDropped: UInt64 = 0
        // Sorting the use times alone: sorting the entries would copy keys and values around.
        for (lastUse, entryCost) in entries.values.map({ ($0.lastUse, $0.cost) }).sorted(by: { $0.0 < $1.0 }) {
            guard count > keptCount || cost > keptCost else { break }
            newestDropped = lastUse
            count -= 1
            cost -= entryCost
        }
        entries = entries.filter { $0.value.lastUse > newestDropped }
        totalCost = cost
    }
}
