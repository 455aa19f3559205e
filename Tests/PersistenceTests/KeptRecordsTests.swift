import Testing
@testable import Persistence

private struct Task: FetchableRecord, Sendable, Equatable {
    let id: Int64
    let title: String
    let done: Bool

    init(id: Int64, title: String, done: Bool) {
        self.id = id
        self.title = title
        self.done = done
    }

    init(row: Row) throws {
        id = try row.decode("id")
        title = try row.decode("title")
        done = try row.decode("done")
    }

    static let selection = "task.id, task.title, task.done"
}

private let tasks = Migration(version: 1, name: "tasks") { db in
    try db.execute("""
        CREATE TABLE task(id INTEGER PRIMARY KEY, title TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0);
        INSERT INTO task(id, title) VALUES (1, 'Pack'), (2, 'Fly'), (3, 'Land');
        """)
}

@Suite struct KeptRecordsTests {
    private func read(_ rowIDs: [Int64], from database: Database) throws -> [Task] {
        try database.read { db in try db.fetchKept(Task.self, from: "task", select: Task.selection, rowIDs: rowIDs) }
    }

    private func write(_ sql: String, to database: Database) throws {
        try database.write(author: "test") { db in try db.execute(sql) }
    }

    @Test func aRecordIsReadAgainOnlyAfterACommitChangesItsOwnRow() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.path("tasks.sqlite"), migrations: [tasks])
        let reads = { database.keptRows.recordsRead.load(ordering: .relaxed) }
        #expect(try read([2, 1], from: database) == [Task(id: 2, title: "Fly", done: false), Task(id: 1, title: "Pack", done: false)])
        #expect(reads() == 2)
        try write("UPDATE task SET done = 1 WHERE id = 3", to: database)
        try write("INSERT INTO task(id, title) VALUES (4, 'Sleep')", to: database)
        #expect(try read([2, 1], from: database).map(\.done) == [false, false])
        #expect(reads() == 2)
        try write("UPDATE task SET done = 1 WHERE id = 1", to: database)
        #expect(try read([2, 1], from: database).map(\.done) == [false, true])
        #expect(reads() == 3)
        try write("DELETE FROM task WHERE id = 2", to: database)
        #expect(try read([2, 1], from: database).map(\.id) == [1])
    }

    /// A tracked read of kept records depends on their rows, and on the columns of its other
    /// statements: it holds across a commit to another row, with that commit's token.
    @Test func aTrackedReadHoldsUntilACommitChangesARowOrAColumnItRead() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.path("tasks.sqlite"), migrations: [tasks])
        let tracked = try database.readTracking { db in
            (try db.fetchKept(Task.self, from: "task", select: Task.selection, rowIDs: [1, 2]).map(\.id),
             try db.fetchScalar(Int.self, "SELECT count(*) FROM task") ?? 0)
        }
        #expect(tracked.region.rowsByTable == ["task": [1, 2]])

        try write("UPDATE task SET done = 1 WHERE id = 3", to: database)
        let token = try database.latestHistoryToken()
        #expect(database.tokenIfUnchanged(tracked.region, since: tracked.generation) == token, "another row changed")

        try write("UPDATE task SET done = 1 WHERE id = 2", to: database)
        #expect(database.tokenIfUnchanged(tracked.region, since: tracked.generation) == nil, "a row it read changed")
    }

    @Test func aTrackedReadDependsOnTheColumnsItsStatementsRead() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.path("tasks.sqlite"), migrations: [tasks])
        let tracked = try database.readTracking { db in try db.fetchAll("SELECT id FROM task WHERE done = 0").count }
        try write("UPDATE task SET title = 'Board' WHERE id = 2", to: database)
        #expect(database.tokenIfUnchanged(tracked.region, since: tracked.generation) != nil, "a column it did not read")
        try write("INSERT INTO task(id, title) VALUES (4, 'Sleep')", to: database)
        #expect(database.tokenIfUnchanged(tracked.region, since: tracked.generation) == nil, "a row added")
    }

    /// A table outside the history (WITHOUT ROWID) has no marks of its own: a read of it is
    /// never taken as unchanged, whatever commits follow.
    @Test func aTrackedReadOfAnUntrackedTableIsNeverTakenAsUnchanged() throws {
        let directory = try TemporaryDirectory()
        let notes = Migration(version: 2, name: "notes") { db in
            try db.execute("CREATE TABLE note(key TEXT PRIMARY KEY, text TEXT NOT NULL) WITHOUT ROWID")
        }
        let database = try Database(path: directory.path("tasks.sqlite"), migrations: [tasks, notes])
        try write("UPDATE task SET done = 1 WHERE id = 3", to: database)
        let tracked = try database.readTracking { db in try db.fetchAll("SELECT text FROM note").count }
        try write("INSERT INTO note(key, text) VALUES ('a', 'Bring a hat')", to: database)
        #expect(database.tokenIfUnchanged(tracked.region, since: tracked.generation) == nil)
    }

    /// Another process' commit may have changed anything, and its token is not known without a read.
    @Test func aTrackedReadIsNotTakenAsUnchangedAfterAnotherProcessCommits() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("tasks.sqlite")
        let database = try Database(path: path, migrations: [tasks])
        database.startWatchingExternalChanges(interval: .milliseconds(20))
        try write("UPDATE task SET done = 1 WHERE id = 3", to: database)
        let tracked = try database.readTracking { db in try db.fetchKept(Task.self, from: "task", select: Task.selection, rowIDs: [1]) }
        #expect(database.tokenIfUnchanged(tracked.region, since: tracked.generation) != nil)
        let other = try Database(path: path, migrations: [tasks])
        try other.write(author: "import") { db in try db.execute("UPDATE task SET title = 'Walk' WHERE id = 2") }
        #expect(await eventually { database.tokenIfUnchanged(tracked.region, since: tracked.generation) == nil })
    }

    @Test func aCommitOfManyRowsChangesEveryKeptRowOfItsTable() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.path("tasks.sqlite"), migrations: [tasks])
        _ = try read([1], from: database)
        // More rows than the clock remembers one by one: it then counts every row as changed.
        try write("""
            WITH RECURSIVE n(i) AS (SELECT 100 UNION ALL SELECT i + 1 FROM n WHERE i < \(100 + ChangeClock.rowsRemembered))
            INSERT INTO task(id, title) SELECT i, 'more' FROM n
            """, to: database)
        _ = try read([1], from: database)
        #expect(database.keptRows.recordsRead.load(ordering: .relaxed) == 2)
        _ = try read([1], from: database)
        #expect(database.keptRows.recordsRead.load(ordering: .relaxed) == 2)
    }

    @Test func anObserverServedKeptRecordsStillHearsOfTheirChanges() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.path("tasks.sqlite"), migrations: [tasks])
        _ = try read([1], from: database)  // kept before the observer starts
        let observer = try ResultsObserver(database: database) { db in
            try db.fetchKept(Task.self, from: "task", select: Task.selection, rowIDs: [1]).map(\.title)
        }
        #expect(observer.value == ["Pack"])
        try write("UPDATE task SET title = 'Pack bags' WHERE id = 1", to: database)
        database.notifier.queue.sync {}
        #expect(observer.value == ["Pack bags"])
    }

    /// An observer depends on the rows of the records it reads by id, as a page does: a commit
    /// to another row of their table does not run it again.
    @Test func anObserverOfRecordsReadByIdRunsAgainOnlyForTheirRows() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.path("tasks.sqlite"), migrations: [tasks])
        let observer = try ResultsObserver(database: database) { db in
            try db.fetchKept(Task.self, from: "task", select: Task.selection, rowIDs: [1]).map(\.done)
        }
        let reads = database.readTransactionCount.load(ordering: .relaxed)
        try write("UPDATE task SET done = 1 WHERE id = 2", to: database)
        database.notifier.queue.sync {}
        #expect(database.readTransactionCount.load(ordering: .relaxed) == reads, "another row changed")
        try write("UPDATE task SET done = 1 WHERE id = 1", to: database)
        database.notifier.queue.sync {}
        #expect(database.readTransactionCount.load(ordering: .relaxed) == reads + 1)
        #expect(observer.value == [true])
    }
}
