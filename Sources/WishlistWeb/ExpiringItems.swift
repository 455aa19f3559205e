import Dispatch
import Foundation
import Synchronization
import WishlistCore

/// Things a screen keeps for a while between requests under random ids (an upload waiting for its
/// confirmation, a download being sent). Each goes when it is taken, when it expires (on the
/// clock given; checked at every call and by a timer), or when a newer one needs its place; the
/// last reference going runs its cleanup (its `deinit`), outside the lock.
final class ExpiringItems<Value: Sendable>: Sendable {
    private struct Entry: Sendable {
        let id: String
        let value: Value
        let expiry: Date
    }

    private let entries = Mutex<[Entry]>([])
    private let clock: DateSource
    private let lifetime: TimeInterval
    private let capacity: Int

    init(clock: DateSource, lifetime: TimeInterval, capacity: Int) {
        self.clock = clock
        self.lifetime = lifetime
        self.capacity = capacity
    }

    /// Keeps `value`, dropping the oldest when full; returns its id.
    func insert(_ value: Value) -> String {
        let id = Self.newID()
        let expiry = clock.now().addingTimeInterval(lifetime)
        // What goes is returned, so that its cleanup runs after the lock is released.
        _ = entries.withLock { entries in
            var dropped = Self.removeExpired(from: &entries, at: clock.now())
            entries.append(Entry(id: id, value: value, expiry: expiry))
            let excess = max(0, entries.count - capacity)
            dropped += entries.prefix(excess)
            entries.removeFirst(excess)
            return dropped
        }
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + lifetime) { [weak self] in self?.removeExpired() }
        return id
    }

    /// The value kept under `id`, no longer kept; nil when there is none (never was, taken, expired, replaced).
    func take(_ id: String) -> Value? {
        entries.withLock { entries in
            let dropped = Self.removeExpired(from: &entries, at: clock.now())
            guard let index = entries.firstIndex(where: { $0.id == id }) else { return (taken: nil as Value?, dropped) }
            return (taken: entries.remove(at: index).value, dropped)
        }.taken
    }

    func removeExpired() {
        _ = entries.withLock { entries in Self.removeExpired(from: &entries, at: clock.now()) }
    }

    private static func removeExpired(from entries: inout [Entry], at now: Date) -> [Entry] {
        let expired = entries.filter { $0.expiry <= now }
        entries.removeAll { $0.expiry <= now }
        return expired
    }

    /// 128 random bits as 32 lowercase hex digits: unguessable, and nothing a path could hide in.
    static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    static func isWellFormedID(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }
}

/// A file that is removed when the last reference to it goes.
final class TemporaryFile: Sendable {
    let url: URL

    init(_ url: URL) {
        self.url = url
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
