import Foundation
import Synchronization
import Testing
@testable import Persistence

@Suite struct CommitScopedCacheTests {
    /// Reads the list names, counting how often the database was actually asked.
    final class ListNames: Sendable {
        let database: Database
        let cache: CommitScopedCache<String, [String]>
        let fetches = Atomic<Int>(0)

        init(_ database: Database, capacity: Int = 8) {
            self.database = database
            cache = CommitScopedCache(database: database, capacity: capacity)
        }

        func names(key: String = "all") throws -> [String] {
            try cache.value(for: key) { _ in
                fetches.add(1, ordering: .relaxed)
                return try database.read { db in try db.fetchAll("SELECT name FROM list ORDER BY id").map { $0["name"] as String } }
            }
        }

        var fetchCount: Int { fetches.load(ordering: .relaxed) }
    }

    @Test func aValueIsComputedOnceUntilTheNextWrite() throws {
        let directory = try TemporaryDirectory()
        let lists = ListNames(try makeDatabaseWithOneList(directory))
        #expect(try lists.names() == ["A"])
        #expect(try lists.names() == ["A"])
        #expect(lists.fetchCount == 1)

        try lists.database.write(author: "test") { db in try db.execute("INSERT INTO list(id, name) VALUES (2, 'B')") }
        // Already current when `write` returns: no waiting for the commit notification.
        #expect(try lists.names() == ["A", "B"])
        #expect(lists.fetchCount == 2)
    }

    /// A cache whose first computation of "page" holds until `release` is signalled.
    final class HeldComputation: Sendable {
        let cache: CommitScopedCache<String, Int>
        let release = DispatchSemaphore(value: 0)
        let computations = Atomic<Int>(0)

        init(_ database: Database) { cache = CommitScopedCache(database: database, capacity: 4) }

        func first(throwing: Bool = false) throws -> Int {
            try cache.value(for: "page") { _ in
                computations.add(1, ordering: .relaxed)
                release.wait()
                if throwing { throw CancellationError() }
                return 42
            }
        }

        func other() -> Int {
            cache.value(for: "page") { _ in computations.add(1, ordering: .relaxed); return 7 }
        }

        var computationCount: Int { computations.load(ordering: .relaxed) }
    }

    /// Runs `body` on a thread of its own (not the cooperative pool, which blocked computations
    /// would exhaust) and hands back its result once `finished` has been waited for.
    final class OnThread<T: Sendable>: @unchecked Sendable {
        private var result: T?
        private let finished = DispatchSemaphore(value: 0)

        init(_ body: @escaping @Sendable () -> T) {
            Thread { [self] in result = body(); finished.signal() }.start()
        }

        var value: T { finished.wait(); return result! }
    }

    @Test func threadsMissingTheSameKeyTogetherComputeItOnce() async throws {
        let directory = try TemporaryDirectory()
        let held = HeldComputation(try makeDatabaseWithOneList(directory))
        let leader = OnThread { try? held.first() }
        #expect(await eventually { held.computationCount == 1 })  // the first render is under way…
        let followers = (0..<3).map { _ in OnThread { held.other() } }
        #expect(await eventually { held.cache.waiterCount == 3 }, "…so the others wait for it")
        held.release.signal()
        #expect(leader.value == 42)
        #expect(followers.map(\.value) == [42, 42, 42])
        #expect(held.computationCount == 1)
    }

    @Test func whenTheFirstComputationThrowsTheWaitersComputeThemselves() async throws {
        let directory = try TemporaryDirectory()
        let held = HeldComputation(try makeDatabaseWithOneList(directory))
        let leader = OnThread { (try? held.first(throwing: true)) == nil }
        #expect(await eventually { held.computationCount == 1 })
        let follower = OnThread { held.other() }
        #expect(await eventually { held.cache.waiterCount == 1 })
        held.release.signal()
        #expect(leader.value, "the first computation threw")
        #expect(follower.value == 7)
    }

    @Test func aWriteThatFailedStillEndsTheCachedValues() throws {
        let directory = try TemporaryDirectory()
        let lists = ListNames(try makeDatabaseWithOneList(directory))
        _ = try lists.names()
        #expect(throws: DatabaseError.self) {
            try lists.database.write(author: "test") { db in try db.execute("INSERT INTO list(id, name) VALUES (1, 'duplicate id')") }
        }
        #expect(try lists.names() == ["A"])
        #expect(lists.fetchCount == 2)
    }

    @Test func aValueComputedWhileACommitHappenedIsNotServedButHandedToTheNextComputation() throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabaseWithOneList(directory)
        let cache = CommitScopedCache<String, Int>(database: database, capacity: 4)
        let value = try cache.value(for: "racing") { kept in
            #expect(kept == nil)
            try database.write(author: "test") { db in try db.execute("INSERT INTO list(id, name) VALUES (2, 'B')") }
            return 1
        }
        #expect(value == 1)
        var keptSeen: Int?
        #expect(cache.value(for: "racing") { kept in keptSeen = kept; return 2 } == 2)
        #expect(keptSeen == 1)
    }

    @Test func theLeastRecentlyUsedValueGoesWhenFull() throws {
        let directory = try TemporaryDirectory()
        let lists = ListNames(try makeDatabaseWithOneList(directory), capacity: 2)
        _ = try lists.names(key: "first")
        _ = try lists.names(key: "second")
        _ = try lists.names(key: "first")      // "second" is now the least recently used
        _ = try lists.names(key: "third")
        #expect(lists.cache.count == 2)
        #expect(lists.fetchCount == 3)
        _ = try lists.names(key: "first")
        #expect(lists.fetchCount == 3)
        _ = try lists.names(key: "second")
        #expect(lists.fetchCount == 4)
    }

    @Test func theLeastRecentlyUsedValuesGoWhenTheirCostIsOverTheLimit() throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabaseWithOneList(directory)
        let cache = CommitScopedCache<String, Int>(database: database, capacity: 100, maxCost: 100, cost: { $0 })
        for (key, cost) in [("a", 30), ("b", 30), ("c", 30)] { _ = cache.value(for: key) { _ in cost } }
        _ = cache.value(for: "a") { _ in 0 }   // "b" is now the least recently used
        #expect(cache.totalCost == 90)
        _ = cache.value(for: "d") { _ in 40 }
        #expect(cache.totalCost == 70)
        var recomputed: [String] = []
        for key in ["a", "b", "c", "d"] { _ = cache.value(for: key) { _ in recomputed.append(key); return 1 } }
        #expect(recomputed == ["b", "c"], "the two least recently used went to make room for the 40")
    }

    /// After a commit every value is stale; each stays, to be checked against by its key's next
    /// computation, until the least recently used make room.
    @Test func aStaleValueIsHandedToItsKeysNextComputation() throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabaseWithOneList(directory)
        let cache = CommitScopedCache<String, Int>(database: database, capacity: 2)
        #expect(cache.value(for: "page") { _ in 1 } == 1)
        #expect(cache.value(for: "other") { _ in 5 } == 5)
        try database.write(author: "test") { db in try db.execute("INSERT INTO list(id, name) VALUES (2, 'B')") }
        var keptSeen: Int?
        #expect(cache.value(for: "page") { kept in keptSeen = kept; return kept! + 1 } == 2)
        #expect(keptSeen == 1)
        #expect(cache.value(for: "page") { _ in 99 } == 2, "current again until the next commit")
        #expect(cache.count == 2)
    }

    @Test func anotherProcessCommitEndsTheCachedValuesOnceTheWatcherSeesIt() async throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabaseWithOneList(directory, name: "shared.sqlite")
        database.startWatchingExternalChanges(interval: .milliseconds(20))
        let lists = ListNames(database)
        #expect(try lists.names() == ["A"])
        // Another Database on the same file stands in for another process.
        let otherProcess = try Database(path: directory.path("shared.sqlite"), migrations: TestSchema.all)
        try otherProcess.write(author: "elsewhere") { db in try db.execute("INSERT INTO list(id, name) VALUES (3, 'C')") }
        #expect(await eventually { (try? lists.names()) == ["A", "C"] })
        otherProcess.close()
        database.close()
    }
}

/// A commit's observers run on another thread as soon as it is posted: whatever they read
/// through the cache must already see it (a history-feed client fetching the trip it was just
/// told about got the answer from before the commit).
@Suite struct CommitOrderTests {
    @Test func observersOfACommitNeverGetTheValueCachedBeforeIt() throws {
        let directory = try TemporaryDirectory()
        let lists = CommitScopedCacheTests.ListNames(try makeDatabaseWithOneList(directory))
        let stale = Mutex<[Int]>([])
        let seen = DispatchSemaphore(value: 0)
        let subscription = lists.database.observeCommits { commit in
            let names = (try? lists.names()) ?? []
            if names.count != Int(commit.token) { stale.withLock { $0.append(Int(commit.token)) } }
            seen.signal()
        }
        defer { subscription.cancel() }
        for id in 2...300 {
            _ = try lists.names()
            try lists.database.write(author: "test") { db in try db.execute("INSERT INTO list(id, name) VALUES (?, 'n')", [id]) }
            #expect(seen.wait(timeout: .now() + 5) == .success)
        }
        #expect(stale.withLock { $0 }.isEmpty, "observers read the value from before their commit")
    }

    /// Writers on several threads: each write's commit is seen through the cache as soon as the
    /// write returns, and observers hear of every commit once, in commit order.
    @Test func concurrentWritesAreSeenWhenTheyReturnAndObservedInOrder() async throws {
        let directory = try TemporaryDirectory()
        let lists = CommitScopedCacheTests.ListNames(try makeDatabaseWithOneList(directory))
        let tokens = Mutex<[Int64]>([])
        let subscription = lists.database.observeCommits { commit in tokens.withLock { $0.append(commit.token) } }
        defer { subscription.cancel() }
        let writers = (0..<4).map { writer in
            CommitScopedCacheTests.OnThread { () -> [String] in
                var missing: [String] = []
                for index in 0..<50 {
                    let name = "w\(writer)-\(index)"
                    _ = try? lists.names()
                    try? lists.database.write(author: "test") { db in try db.execute("INSERT INTO list(name) VALUES (?)", [name]) }
                    if !((try? lists.names()) ?? []).contains(name) { missing.append(name) }
                }
                return missing
            }
        }
        #expect(writers.flatMap(\.value).isEmpty, "a write returned before the cache showed it")
        let expected = Array(Int64(2)...Int64(201))
        #expect(await eventually { tokens.withLock { $0.count } == expected.count })
        #expect(tokens.withLock { $0 } == expected)
    }
}
