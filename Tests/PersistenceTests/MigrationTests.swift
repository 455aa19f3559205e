import Foundation
import Synchronization
import Testing
@testable import Persistence

@Suite struct MigrationTests {
    /// A migration that logs each run, to see which ran and in which order.
    private func logging(_ version: Int, into log: SharedState<[Int]>) -> Migration {
        Migration(version: version, name: "v\(version)") { db in
            try db.execute("CREATE TABLE t\(version)(id INTEGER PRIMARY KEY)")
            log.withLock { $0.append(version) }
        }
    }

    @Test func appliesMigrationsInVersionOrderOnlyOnce() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("order.sqlite")
        let log = SharedState<[Int]>([])
        let migrations = [3, 1, 2].map { logging($0, into: log) }
        try Database(path: path, migrations: migrations).close()
        #expect(log.withLock { $0 } == [1, 2, 3])
        let reopened = try Database(path: path, migrations: migrations)
        #expect(log.withLock { $0 } == [1, 2, 3])
        #expect(try reopened.read { db in try Migrator.schemaVersion(db) } == 3)
    }

    @Test func reopeningKeepsDataAndAppliesOnlyNewMigrations() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("restart.sqlite")
        do {
            let database = try Database(path: path, migrations: [TestSchema.lists])
            try database.write(author: "test") { db in try db.execute("INSERT INTO list(name) VALUES (?)", ["kept"]) }
            database.close()
        }
        let upgraded = try Database(path: path, migrations: TestSchema.all)
        try upgraded.read { db throws in
            #expect(try db.fetchScalar(String.self, "SELECT name FROM list") == "kept")
            #expect(try db.fetchScalar(Int.self, "SELECT count(*) FROM item") == 0)
            #expect(try Migrator.schemaVersion(db) == 2)
        }
    }

    @Test func refusesAFileFromANewerVersionAndLeavesItUnchanged() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("newer.sqlite")
        try Database(path: path, migrations: TestSchema.all).close()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = try #require(throws: MigrationError.self) {
            try Database(path: path, migrations: [TestSchema.lists])
        }
        #expect(error.description.contains("newer version of this app (schema 2, this build knows up to 1)"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func aFailingMigrationIsRolledBackAndStopsTheOpening() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("failing.sqlite")
        struct Broken: Error {}
        let failing = Migration(version: 2, name: "half done") { db in
            try db.execute("CREATE TABLE half(id INTEGER PRIMARY KEY)")
            throw Broken()
        }
        #expect(throws: MigrationError.self) { try Database(path: path, migrations: [TestSchema.lists, failing]) }
        let database = try Database(path: path, migrations: [TestSchema.lists])
        try database.read { db throws in
            #expect(try Migrator.schemaVersion(db) == 1)
            #expect(try db.fetchScalar(Int.self, "SELECT count(*) FROM sqlite_master WHERE name = 'half'") == 0)
        }
    }

    /// A parent table rebuilt (here: AUTOINCREMENT added) keeps its rows, its triggers and its
    /// children, whose rows a cascading drop would have taken.
    @Test func aRebuiltTableKeepsRowsTriggersAndChildren() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("rebuild.sqlite")
        let tables = Migration(version: 1, name: "tables") { db in
            try db.execute("""
                CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT NOT NULL, shout TEXT GENERATED ALWAYS AS (upper(name)) VIRTUAL);
                CREATE INDEX parent_by_name ON parent(name);
                CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id INTEGER NOT NULL REFERENCES parent(id) ON DELETE CASCADE);
                CREATE TABLE log (entry TEXT);
                CREATE TRIGGER parent_added AFTER INSERT ON parent BEGIN INSERT INTO log VALUES ('added ' || NEW.name); END;
                CREATE TRIGGER child_added AFTER INSERT ON child BEGIN INSERT INTO log VALUES ((SELECT name FROM parent WHERE id = NEW.parent_id)); END;
                INSERT INTO parent (id, name) VALUES (1, 'a'), (2, 'b');
                INSERT INTO child (parent_id) VALUES (1), (2);
                DELETE FROM parent WHERE id = 2;
                DELETE FROM log;
                """)
        }
        let rebuild = Migration(version: 2, name: "autoincrement", rebuildsTables: true) { db in
            try db.rebuildTable("parent") { $0.replacing("id INTEGER PRIMARY KEY,", with: "id INTEGER PRIMARY KEY AUTOINCREMENT,") }
        }
        try Database(path: path, migrations: [tables]).close()
        let database = try Database(path: path, migrations: [tables, rebuild])
        try database.write(author: "test") { db in
            #expect(try db.fetchScalar(String.self, "SELECT shout FROM parent WHERE id = 1") == "A")
            #expect(try db.fetchScalar(Int.self, "SELECT count(*) FROM child") == 1)
            try db.execute("INSERT INTO parent (name) VALUES ('gone'); DELETE FROM parent WHERE name = 'gone'")
            try db.execute("INSERT INTO parent (name) VALUES ('c')")
            // Without AUTOINCREMENT, c would take 2, the id of the deleted 'gone'.
            #expect(try db.fetchScalar(Int.self, "SELECT id FROM parent WHERE name = 'c'") == 3)
            try db.execute("INSERT INTO child (parent_id) VALUES (3)")
            #expect(try db.fetchAll("SELECT entry FROM log").map { $0["entry"] as String } == ["added gone", "added c", "c"])
            #expect(try db.fetchScalar(Int.self, "PRAGMA foreign_keys") == 1)
            try db.execute("DELETE FROM parent WHERE id = 1")
            #expect(try db.fetchScalar(Int.self, "SELECT count(*) FROM child") == 1, "the cascade still runs")
            #expect(try db.fetchScalar(Int.self, "SELECT count(*) FROM sqlite_schema WHERE name = 'parent_by_name'") == 1)
        }
    }

    @Test func rejectsDuplicateVersions() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: MigrationError.self) {
            try Database(path: directory.path("dup.sqlite"), migrations: [TestSchema.lists, Migration(version: 1, name: "again") { _ in }])
        }
    }
}
