import Foundation
import Testing
@testable import Persistence

@Suite struct ObserverTests {
    @Test func resultsObserverFiresOnlyWhenItsResultChanges() async throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabaseWithOneList(directory)
        let openCount = try ResultsObserver(database: database) { db in
            try db.fetchScalar(Int.self, "SELECT count(*) FROM item WHERE done = 0") ?? 0
        }
        #expect(openCount.value == 0)
        let received = SharedState<[(Int, Int64)]>([])
        let subscription = openCount.subscribe { read, token in received.withLock { $0.append((read.value, token)) } }

        try database.write(author: "test") { db in try db.execute("INSERT INTO item(id, list_id, title) VALUES (1, 1, 'x')") }
        #expect(await eventually { received.withLock(\.count) == 1 })
        #expect(received.withLock { $0.first?.0 } == 1)
        #expect(try received.withLock { $0.first?.1 } == database.latestHistoryToken())

        // An unrelated table, and a change to the table that leaves the result equal: no call.
        try database.write(author: "test") { db in try db.execute("UPDATE list SET name = 'B'") }
        try database.write(author: "test") { db in try db.execute("UPDATE item SET title = 'renamed'") }
        try database.write(author: "test") { db in try db.execute("UPDATE item SET done = 1") }
        #expect(await eventually { received.withLock(\.count) == 2 })
        #expect(received.withLock { $0.map(\.0) } == [1, 0])
        #expect(openCount.value == 0)
        // Everything was delivered once the notification queue has drained.
        database.notifier.queue.sync {}
        #expect(received.withLock(\.count) == 2)

        subscription.cancel()
        try database.write(author: "test") { db in try db.execute("UPDATE item SET done = 0") }
        database.notifier.queue.sync {}
        #expect(received.withLock(\.count) == 2)
        #expect(openCount.value == 1)
    }

    @Test func notificationsComeAfterCommitFromAnotherThread() async throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabaseWithOneList(directory)
        let seen = SharedState<[String]>([])
        let observerThread = SharedState<pthread_t?>(nil)
        let subscription = database.observeCommits { commit in
            observerThread.withLock { $0 = pthread_self() }
            // Read on a reader: only committed data is visible there.
            let name = try? database.read { db in try db.fetchScalar(String.self, "SELECT name FROM list WHERE id = 1") }
            seen.withLock { $0.append("\(commit.tables.sorted()):\(name ?? "?")") }
        }
        let writerThread = pthread_self()
        try database.write(author: "test") { db in try db.execute("UPDATE list SET name = 'committed' WHERE id = 1") }
        #expect(await eventually { seen.withLock(\.count) == 1 })
        #expect(seen.withLock { $0 } == ["[\"list\"]:committed"])
        let notifiedOn = try #require(observerThread.withLock { $0 })
        #expect(pthread_equal(notifiedOn, writerThread) == 0)
        withExtendedLifetime(subscription) {}
    }

    @Test func descriptorObserverDeliversRecordsAndSections() async throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabaseWithOneList(directory)
        try database.write(author: "test") { db throws in
            try db.execute("INSERT INTO list(id, name) VALUES (2, 'B')")
            try db.execute("INSERT INTO item(list_id, title, done) VALUES (1, 'b', 0), (2, 'a', 0), (1, 'c', 1), (1, 'a', 0)")
        }
        let open = FetchDescriptor(table: "item", predicate: "done = ?", arguments: [false], orderBy: "title", limit: 10)
        let flat = try ResultsObserver<[Item]>(database: database, descriptor: open)
        #expect(flat.value.map(\.title) == ["a", "a", "b"])

        var byList = open
        byList.sectionKey = "list_id"
        let sectioned = try ResultsObserver<[RecordSection<Item>]>(database: database, sectionedDescriptor: byList)
        #expect(sectioned.value.map(\.key) == [.integer(1), .integer(2)])
        #expect(sectioned.value.map { $0.records.map(\.title) } == [["a", "b"], ["a"]])

        try database.write(author: "test") { db in try db.execute("UPDATE item SET done = 1 WHERE list_id = 2") }
        #expect(await eventually { sectioned.value.count == 1 && flat.value.count == 2 })
    }

    @Test func historyObserverCountsMatchingTransactions() async throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabaseWithOneList(directory)
        let itemsByAlice = try HistoryObserver(database: database, authors: ["alice"], entities: ["item"])
        let everything = try HistoryObserver(database: database)
        let events = SharedState<[Int]>([])
        let subscription = itemsByAlice.subscribe { count, _ in events.withLock { $0.append(count) } }

        try database.write(author: "alice") { db in try db.execute("INSERT INTO item(list_id, title) VALUES (1, 'x')") }
        try database.write(author: "bob") { db in try db.execute("INSERT INTO item(list_id, title) VALUES (1, 'y')") }
        try database.write(author: "alice") { db in try db.execute("UPDATE list SET name = 'renamed'") }
        try database.write(author: "alice") { db in try db.execute("UPDATE item SET done = 1") }
        try database.write(author: "alice") { db in try db.execute("UPDATE item SET done = 1 WHERE id = 999") }

        #expect(await eventually { everything.eventCount == 4 })
        database.notifier.queue.sync {}
        #expect(itemsByAlice.eventCount == 2)
        // A notification counts every match committed since the last one: commits that land
        // before the notification queue runs arrive together ([2] instead of [1, 2]).
        let counts = events.withLock { $0 }
        #expect(counts.last == 2 && counts == counts.sorted() && Set(counts).count == counts.count)
        withExtendedLifetime(subscription) {}
    }

    @Test func historyObserverSkipsExcludedAuthors() async throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabaseWithOneList(directory)
        let notBySync = try HistoryObserver(database: database, authors: .excluding(["token:sync"]))
        let everything = try HistoryObserver(database: database)

        try database.write(author: "token:sync") { db in try db.execute("INSERT INTO item(list_id, title) VALUES (1, 'x')") }
        try database.write(author: "app") { db in try db.execute("INSERT INTO item(list_id, title) VALUES (1, 'y')") }
        try database.write(author: "token:sync") { db in try db.execute("UPDATE list SET name = 'renamed'") }

        #expect(await eventually { everything.eventCount == 3 })
        database.notifier.queue.sync {}
        #expect(notBySync.eventCount == 1)
    }

    @Test func commitsOfAnotherConnectionAreNoticedByTheWatcher() async throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabaseWithOneList(directory, name: "shared.sqlite")
        database.startWatchingExternalChanges(interval: .milliseconds(20))
        let names = try ResultsObserver(database: database) { db in
            try db.fetchAll("SELECT name FROM list ORDER BY id").map { $0["name"] as String }
        }
        let ownCommits = SharedState<[DatabaseCommit]>([])
        let subscription = database.observeCommits { commit in ownCommits.withLock { $0.append(commit) } }
        try database.write(author: "here") { db in try db.execute("INSERT INTO list(id, name) VALUES (2, 'B')") }

        // Another Database on the same file stands in for another process.
        let otherProcess = try Database(path: directory.path("shared.sqlite"), migrations: TestSchema.all)
        try otherProcess.write(author: "elsewhere") { db in try db.execute("INSERT INTO list(id, name) VALUES (3, 'C')") }
        #expect(await eventually { names.value == ["A", "B", "C"] })
        database.notifier.queue.sync {}
        // The watcher saw the other commit, so it had looked since our own: that one it never reported.
        let commits = ownCommits.withLock { $0 }
        #expect(commits.map(\.isExternal) == [false, true])
        #expect(try commits.last?.token == otherProcess.latestHistoryToken())
        withExtendedLifetime(subscription) {}
        otherProcess.close()
        database.close()
    }
}
