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
            try cache.value(for: key) { [unowned self] _ in
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
            try cache.value(for: "page") { [unowned self] _ in
                computations.add(1, ordering: .relaxed)
                release.wait()
                if throwing { throw CancellationError() }
                return 42
            }
        }

        func other() -> Int {
            cache.value(for: "page") { [unowned self] _ in computations.add(1, ordering: .relaxed); return 7 }
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
        let keptSeen = Mutex<Int?>(nil)
        #expect(cache.value(for: "racing") { kept in keptSeen.withLock { $0 = kept }; return 2 } == 2)
        #expect(keptSeen.withLock { $0 } == 1)
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

    /// After a commit every value not computed again by it is stale; each stays, to be checked
    /// against by its key's next computation, until the least recently used make room.
    @Test func aStaleValueIsHandedToItsKeysNextComputation() throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabaseWithOneList(directory)
        let cache = CommitScopedCache<String, Int>(database: database, capacity: 2, recomputedPerCommit: 0)
        #expect(cache.value(for: "page") { _ in 1 } == 1)
        #expect(cache.value(for: "other") { _ in 5 } == 5)
        try database.write(author: "test") { db in try db.execute("INSERT INTO list(id, name) VALUES (2, 'B')") }
        let keptSeen = Mutex<Int?>(nil)
        #expect(cache.value(for: "page") { kept in keptSeen.withLock { $0 = kept }; return kept! + 1 } == 2)
        #expect(keptSeen.withLock { $0 } == 1)
        #expect(cache.value(for: "page") { _ in 99 } == 2, "current again until the next commit")
        #expect(cache.count == 2)
    }

    /// A write computes again the values used since the commit before it, while requests are
    /// still answered from before it, so that no request after a commit waits for a computation.
    @Test func aWriteRecomputesTheValuesUsedSinceThePreviousCommit() throws {
        let directory = try TemporaryDirectory()
        let lists = ListNames(try makeDatabaseWithOneList(directory))
        _ = try lists.names(key: "used")
        _ = try lists.names(key: "also used")
        try lists.database.write(author: "test") { db in try db.execute("INSERT INTO list(id, name) VALUES (2, 'B')") }
        #expect(lists.fetchCount == 4, "the write read both again")
        #expect(try lists.names(key: "used") == ["A", "B"])
        #expect(lists.fetchCount == 4, "and it was current when the write returned")

        // Unused since that commit, "also used" is not read again by the next one.
        try lists.database.write(author: "test") { db in try db.execute("INSERT INTO list(id, name) VALUES (3, 'C')") }
        #expect(lists.fetchCount == 5)
        #expect(try lists.names(key: "also used") == ["A", "B", "C"])
        #expect(lists.fetchCount == 6)
    }

    @Test func aWriteRecomputesAtMostItsLimitTheMostRecentlyUsedFirst() throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabaseWithOneList(directory)
        let computed = Mutex<[String]>([])
        let cache = CommitScopedCache<String, Int>(database: database, capacity: 8, recomputedPerCommit: 2)
        for key in ["a", "b", "c"] {
            _ = cache.value(for: key) { _ in computed.withLock { $0.append(key) }; return 0 }
        }
        computed.withLock { $0 = [] }
        try database.write(author: "test") { db in try db.execute("INSERT INTO list(id, name) VALUES (2, 'B')") }
        #expect(computed.withLock { $0 } == ["c", "b"])
    }

    /// While the write computes, requests get the values from before its commit at once.
    @Test func requestsDuringTheRecomputationAreAnsweredFromBeforeTheCommit() async throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabaseWithOneList(directory)
        let cache = CommitScopedCache<String, Int>(database: database, capacity: 4)
        let recomputing = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        #expect(cache.value(for: "page") { kept in
            guard kept != nil else { return 1 }
            recomputing.signal()
            release.wait()
            return 2
        } == 1)
        let writer = OnThread { (try? database.write(author: "test") { db in try db.execute("INSERT INTO list(id, name) VALUES (2, 'B')") }) != nil }
        recomputing.wait()
        #expect(cache.value(for: "page") { _ in 99 } == 1, "the commit is not published yet: the value from before it holds")
        release.signal()
        #expect(writer.value)
        #expect(cache.value(for: "page") { _ in 99 } == 2, "published with the commit")
    }

    /// Another process' commit seen while a write recomputed: what it computed may miss that
    /// commit, so it is not made current.
    @Test func aValueRecomputedAcrossAnotherProcessCommitIsNotMadeCurrent() throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabaseWithOneList(directory)
        let cache = CommitScopedCache<String, Int>(database: database, capacity: 4)
        #expect(cache.value(for: "page") { kept in
            if kept != nil { database.noteExternalCommit(token: 0) }
            return (kept ?? 0) + 1
        } == 1)
        try database.write(author: "test") { db in try db.execute("INSERT INTO list(id, name) VALUES (2, 'B')") }
        #expect(cache.value(for: "page") { kept in (kept ?? 0) + 10 } == 11, "computed from the value before the write, not the 2 made across the other commit")
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

    /// Writers on several threads: one may publish the commits of those waiting with it, yet each
    /// write returns only once its own commit is published (it reads it back through the cache),
    /// and observers hear of every commit once, in commit order.
    @Test func concurrentWritesArePublishedInOrderBeforeTheyReturn() async throws {
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
