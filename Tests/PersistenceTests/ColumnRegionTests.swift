import Testing
@testable import Persistence

/// A table with a generated column in the middle, a log kept by a trigger on one column's
/// update, and a foreign key that deleting its target sets to NULL.
private enum TaskSchema {
    static let tasks = Migration(version: 1, name: "tasks") { db in
        try db.execute("""
            CREATE TABLE tag(id INTEGER PRIMARY KEY, label TEXT NOT NULL);
            CREATE TABLE task(id INTEGER PRIMARY KEY, title TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0,
                              state TEXT GENERATED ALWAYS AS (CASE WHEN done THEN 'done' ELSE 'open' END) VIRTUAL,
                              note TEXT, tag_id INTEGER REFERENCES tag(id) ON DELETE SET NULL);
            CREATE TABLE title_log(task_id INTEGER, title TEXT, PRIMARY KEY (task_id, title)) WITHOUT ROWID;
            CREATE TRIGGER task_renamed AFTER UPDATE OF title ON task BEGIN
                INSERT OR IGNORE INTO title_log(task_id, title) VALUES (NEW.id, NEW.title);
            END;
            """)
    }

    static func open(_ directory: TemporaryDirectory) throws -> Database {
        let database = try Database(path: directory.path("tasks.sqlite"), migrations: [tasks])
        try database.write(author: "setup") { db in
            try db.execute("PRAGMA foreign_keys = ON")
            try db.execute("INSERT INTO tag(id, label) VALUES (1, 'home')")
            try db.execute("INSERT INTO task(id, title, note, tag_id) VALUES (1, 'Pack', 'soon', 1), (2, 'Fly', NULL, NULL)")
        }
        return database
    }
}

@Suite struct ColumnRegionTests {
    /// How many times an observer of `sql` fetched, after each of `writes` (one commit each).
    private func fetchCounts(observing sql: String, after writes: [String]) throws -> [Int] {
        let directory = try TemporaryDirectory()
        let database = try TaskSchema.open(directory)
        let fetches = SharedState(0)
        let observer = try ResultsObserver(database: database) { db in
            fetches.withLock { $0 += 1 }
            return try db.fetchAll(sql).count
        }
        return try writes.map { write in
            try database.write(author: "test") { db in try db.execute(write) }
            database.notifier.queue.sync {}
            _ = observer.value
            return fetches.withLock { $0 } - 1
        }
    }

    @Test func aCommitThatUpdatesOnlyOtherColumnsLeavesTheQueryAlone() throws {
        #expect(try fetchCounts(observing: "SELECT title FROM task", after: [
            "UPDATE task SET done = 1 WHERE id = 1",
            "UPDATE task SET title = title",  // the same values: no column changed
            "UPDATE task SET title = 'Pack bags' WHERE id = 1",
            "INSERT INTO task(title) VALUES ('Land')",
            "DELETE FROM task WHERE id = 2",
        ]) == [0, 0, 1, 2, 3])
    }

    @Test func aGeneratedColumnChangesWithTheColumnsItIsComputedFrom() throws {
        #expect(try fetchCounts(observing: "SELECT state FROM task", after: ["UPDATE task SET done = 1 WHERE id = 1"]) == [1])
        // Columns declared after the generated one are told apart all the same, to the last
        // (SQLite versions number them differently in the pre-update hook).
        #expect(try fetchCounts(observing: "SELECT note FROM task", after: [
            "UPDATE task SET done = 1 WHERE id = 1", "UPDATE task SET note = 'now' WHERE id = 1",
        ]) == [0, 1])
        #expect(try fetchCounts(observing: "SELECT tag_id FROM task", after: [
            "UPDATE task SET note = 'now' WHERE id = 1", "UPDATE task SET tag_id = NULL WHERE id = 1",
        ]) == [0, 1])
    }

    @Test func aTableKeptByAnUpdateTriggerChangesWithThatColumnOnly() throws {
        #expect(try fetchCounts(observing: "SELECT title FROM title_log", after: [
            "UPDATE task SET done = 1 WHERE id = 1",
            "UPDATE task SET title = 'Pack bags' WHERE id = 1",
        ]) == [0, 1])
    }

    @Test func aForeignKeySetToNullByADeletionIsAChangedColumn() throws {
        #expect(try fetchCounts(observing: "SELECT tag_id FROM task WHERE tag_id IS NOT NULL", after: [
            "UPDATE tag SET label = 'away'",
            "DELETE FROM tag WHERE id = 1",
        ]) == [0, 1])
    }

    @Test func keptRowsLastUntilACommitChangesWhatTheyRead() throws {
        let directory = try TemporaryDirectory()
        let database = try TaskSchema.open(directory)
        func titles() throws -> [String] {
            try database.read { db in try db.fetchAllKept("SELECT title FROM task WHERE title LIKE ? ORDER BY id", ["%a%"]).map { $0[0] } }
        }
        func write(_ sql: String) throws { try database.write(author: "test") { db in try db.execute(sql) } }
        #expect(try titles() == ["Pack"])
        try write("UPDATE task SET done = 1, note = 'x'")
        #expect(try titles() == ["Pack"])
        #expect(database.keptRows.queriesRun.load(ordering: .relaxed) == 1)
        try write("UPDATE task SET title = 'Fly far' WHERE id = 2")
        #expect(try titles() == ["Pack", "Fly far"])
        try write("DELETE FROM task WHERE id = 1")
        #expect(try titles() == ["Fly far"])
        #expect(database.keptRows.queriesRun.load(ordering: .relaxed) == 3)
        // On the writer nothing is kept: it reads its own uncommitted rows.
        try database.write(author: "test") { db in
            try db.execute("UPDATE task SET title = 'Flying' WHERE id = 2")
            #expect(try db.fetchAllKept("SELECT title FROM task").map { $0[0] as String } == ["Flying"])
        }
    }

    @Test func anObserverOfKeptRowsStillHearsOfChangesToThem() throws {
        let directory = try TemporaryDirectory()
        let database = try TaskSchema.open(directory)
        // Kept before the observer exists, so its first fetch takes them from the kept results.
        _ = try database.read { db in try db.fetchAllKept("SELECT title FROM task ORDER BY id") }
        let observer = try ResultsObserver(database: database) { db in
            try db.fetchAllKept("SELECT title FROM task ORDER BY id").map { $0[0] as String }
        }
        #expect(database.keptRows.queriesRun.load(ordering: .relaxed) == 1)
        try database.write(author: "test") { db in try db.execute("UPDATE task SET title = 'Unpack' WHERE id = 1") }
        database.notifier.queue.sync {}
        #expect(observer.value == ["Unpack", "Fly"])
    }
}
