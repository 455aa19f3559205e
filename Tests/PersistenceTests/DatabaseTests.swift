import CSQLite
import Foundation
import Synchronization
import Testing
@testable import Persistence

@Suite struct DatabaseTests {
    @Test func aThrowingWriteLeavesNothingBehind() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.path("rollback.sqlite"), migrations: TestSchema.all)
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try database.write(author: "test") { db throws in
                try db.execute("INSERT INTO list(name) VALUES (?)", ["half"])
                try db.execute("INSERT INTO item(list_id, title) VALUES (?, ?)", [db.lastInsertedRowID, "written"])
                throw Abort()
            }
        }
        try database.read { db throws in
            #expect(try db.fetchScalar(Int.self, "SELECT count(*) FROM list") == 0)
            #expect(try db.fetchScalar(Int.self, "SELECT count(*) FROM item") == 0)
        }
        #expect(try database.fetchHistory(after: 0).isEmpty)
        // The writer is usable again after the rollback.
        try database.write(author: "test") { db in try db.execute("INSERT INTO list(name) VALUES (?)", ["whole"]) }
        #expect(try database.read { db in try db.fetchScalar(Int.self, "SELECT count(*) FROM list") } == 1)
    }

    @Test func aReaderRunsDuringALongWriteAndSeesTheCommittedState() async throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.path("concurrent.sqlite"), migrations: TestSchema.all)
        try database.write(author: "test") { db in try db.execute("INSERT INTO list(name) VALUES (?)", ["old"]) }
        let writeStarted = DispatchSemaphore(value: 0)
        let readDone = DispatchSemaphore(value: 0)
        let writeFinished = Atomic<Bool>(false)
        let writer = Task.detached {
            try database.write(author: "test") { db throws in
                try db.execute("UPDATE list SET name = ?", ["new"])
                writeStarted.signal()
                // The write lasts until the read is done: a read that waited for it would
                // instead find it finished, after the timeout.
                _ = readDone.wait(timeout: .now() + 5)
                writeFinished.store(true, ordering: .sequentiallyConsistent)
            }
        }
        writeStarted.wait()
        let seen = try database.read { db in try db.fetchScalar(String.self, "SELECT name FROM list") }
        let finishedBeforeRead = writeFinished.load(ordering: .sequentiallyConsistent)
        readDone.signal()
        #expect(seen == "old")
        #expect(!finishedBeforeRead, "the read must not wait for the write")
        try await writer.value
        #expect(try database.read { db in try db.fetchScalar(String.self, "SELECT name FROM list") } == "new")
    }

    @Test func backupIsAnIdenticalHealthyCopy() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.path("live.sqlite"), migrations: TestSchema.all)
        try database.write(author: "test") { db throws in
            try db.execute("INSERT INTO list(name) VALUES (?)", ["A"])
            for index in 0..<500 {
                try db.execute("INSERT INTO item(list_id, title, done) VALUES (?, ?, ?)", [1, "item \(index)", index % 3 == 0])
            }
        }
        let copyPath = directory.path("copy.sqlite")
        try database.backup(to: copyPath)
        let copy = try Database(path: copyPath, migrations: TestSchema.all)
        let dump = "SELECT id, list_id, title, done FROM item ORDER BY id"
        try copy.read { db throws in
            #expect(try db.fetchScalar(String.self, "PRAGMA integrity_check") == "ok")
            #expect(try db.fetchScalar(Int.self, "SELECT count(*) FROM item") == 500)
        }
        let original = try database.read { db in try db.fetchAll(dump).map(\.values) }
        #expect(try copy.read { db in try db.fetchAll(dump).map(\.values) } == original)
        #expect(try copy.fetchHistory(after: 0) == database.fetchHistory(after: 0))
        #expect(!FileManager.default.fileExists(atPath: copyPath + ".partial"))
    }

    @Test func restorePutsACopyBackUnderOpenConnectionsAndTokensKeepClimbing() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.path("live.sqlite"), migrations: TestSchema.all)
        try database.write(author: "test") { db throws in try db.execute("INSERT INTO list(name) VALUES ('kept')") }
        try database.backup(to: directory.path("copy.sqlite"))
        for name in ["later 1", "later 2"] {
            try database.write(author: "test") { db throws in try db.execute("INSERT INTO list(name) VALUES (?)", [name]) }
        }
        let tokenBefore = try database.latestHistoryToken()
        // A second handle on the file, as a running server's would be.
        let server = try Database(path: directory.path("live.sqlite"), migrations: TestSchema.all)

        try database.restore(from: directory.path("copy.sqlite"))

        let names = "SELECT group_concat(name) FROM list"
        #expect(try server.read { db in try db.fetchScalar(String.self, names) } == "kept")
        #expect(try database.read { db in try db.fetchScalar(String.self, names) } == "kept")
        try server.write(author: "test") { db throws in try db.execute("INSERT INTO list(name) VALUES ('after')") }
        #expect(try server.latestHistoryToken() == tokenBefore + 1)
        #expect(try database.read { db in try db.fetchScalar(String.self, "PRAGMA journal_mode") } == "wal")
    }

    /// A reader that saw the commits a restore took back must hear so even after later commits
    /// pass its token: "nothing new" would hide that its copy holds changes that are gone.
    @Test func aRestoreTakesBackTheTokensAfterTheBackupsNewest() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.path("live.sqlite"), migrations: TestSchema.all)
        let insert = { (name: String) in
            try database.write(author: "test") { db throws in try db.execute("INSERT INTO list(name) VALUES (?)", [name]) }
        }
        try insert("kept")
        let backupToken = try database.latestHistoryToken()
        try database.backup(to: directory.path("copy.sqlite"))
        try insert("lost 1")
        try insert("lost 2")
        let readerToken = try database.latestHistoryToken()
        #expect(try database.historyHolds(HistoryCursor(token: readerToken)))

        try database.restore(from: directory.path("copy.sqlite"))
        try insert("after 1")
        try insert("after 2")
        #expect(try database.latestHistoryToken() == readerToken + 2)
        #expect(try !database.historyHolds(HistoryCursor(token: readerToken)))
        #expect(try !database.historyHolds(HistoryCursor(token: backupToken + 1, change: 3)))
        #expect(try database.historyHolds(HistoryCursor(token: backupToken)))
        #expect(try database.historyHolds(HistoryCursor(token: readerToken + 1)))
        #expect(try !database.historyHolds(HistoryCursor(token: readerToken + 3)), "beyond the newest")

        // A second restore keeps the first one's gap.
        try database.backup(to: directory.path("second.sqlite"))
        try database.restore(from: directory.path("second.sqlite"))
        #expect(try !database.historyHolds(HistoryCursor(token: readerToken)))
    }

    @Test func aDeletedOrReplacedFileStopsWrites() throws {
        let directory = try TemporaryDirectory()
        let insert = { (db: Connection) throws in try db.execute("INSERT INTO list(name) VALUES ('lost?')") }
        let deletedPath = directory.path("deleted.sqlite")
        let deleted = try Database(path: deletedPath, migrations: TestSchema.all)
        defer { deleted.close() }
        try deleted.write(author: "test", insert)
        try FileManager.default.removeItem(atPath: deletedPath)
        #expect(throws: DatabaseFileProblem.deleted(path: deletedPath)) { try deleted.write(author: "test", insert) }
        // A new file under the name changes nothing: the connections still hold the deleted one.
        try Database(path: deletedPath, migrations: TestSchema.all).close()
        #expect(throws: DatabaseFileProblem.deleted(path: deletedPath)) { try deleted.write(author: "test", insert) }

        let replacedPath = directory.path("replaced.sqlite")
        let replaced = try Database(path: replacedPath, migrations: TestSchema.all)
        defer { replaced.close() }
        try Database(path: directory.path("copy.sqlite"), migrations: TestSchema.all).close()
        #expect(rename(directory.path("copy.sqlite"), replacedPath) == 0)
        #expect(replaced.fileProblem == .replaced(path: replacedPath))
        #expect(throws: DatabaseFileProblem.replaced(path: replacedPath)) { try replaced.write(author: "test", insert) }
    }

    @Test func closedDatabaseRefusesWork() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.path("closed.sqlite"), migrations: [])
        database.close()
        #expect(throws: DatabaseError.self) { try database.read { db in try db.fetchOne("SELECT 1") } }
        database.close()
    }

    @Test func bulkInsertOfManyRowsInOneTransactionRecordsEveryRow() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.path("bulk.sqlite"), migrations: TestSchema.all)
        let rowCount = 100_000
        try database.write(author: "import") { db throws in
            try db.execute("INSERT INTO list(name) VALUES (?)", ["bulk"])
            let insert = try db.prepare("INSERT INTO item(list_id, title) VALUES (?, ?)")
            for index in 0..<rowCount {
                try insert.execute([1, "item \(index)"])
            }
        }
        let token = try database.latestHistoryToken()
        let recorded = try database.read { db in
            try db.fetchScalar(Int.self, "SELECT count(*) FROM history_change WHERE token = ?", [token])
        }
        #expect(recorded == rowCount + 1)
    }
}

@Suite struct ReleaseMemoryTests {
    /// Bytes of page cache the reader handed out by `read` holds.
    static func cacheUsed(_ database: Database) throws -> Int32 {
        try database.read { db in
            var current: Int32 = 0, highest: Int32 = 0
            sqlite3_db_status(db.handle, SQLITE_DBSTATUS_CACHE_USED, &current, &highest, 0)
            return current
        }
    }

    @Test func idleConnectionsGiveBackTheirPageCache() throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabaseWithOneList(directory)
        try database.write(author: "test") { db in
            let insert = try db.prepare("INSERT INTO item(list_id, title) VALUES (1, ?)")
            for number in 0..<5_000 { try insert.execute(["item \(number) " + String(repeating: "x", count: 100)]) }
        }
        // LIFO pool: single-threaded reads get the same reader each time.
        _ = try database.read { db in try db.fetchAll("SELECT * FROM item") }
        let filled = try Self.cacheUsed(database)
        #expect(filled > 200_000)
        database.releaseMemory()
        #expect(try Self.cacheUsed(database) < filled / 4)
        // Still a working database afterwards.
        #expect(try database.read { db in try db.fetchScalar(Int.self, "SELECT count(*) FROM item") } == 5_000)
    }
}
