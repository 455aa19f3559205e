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

    @Test func rejectsDuplicateVersions() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: MigrationError.self) {
            try Database(path: directory.path("dup.sqlite"), migrations: [TestSchema.lists, Migration(version: 1, name: "again") { _ in }])
        }
    }
}
