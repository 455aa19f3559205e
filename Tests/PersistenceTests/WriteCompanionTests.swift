import Testing
@testable import Persistence

/// A companion commits with the first write made under it, or not at all: a write that rolls
/// back takes it back too, and the next write takes it; once committed no other write runs it.
@Suite struct WriteCompanionTests {
    struct Refused: Error {}

    @Test func itCommitsWithTheFirstWriteThatCommitsAndOnlyOnce() throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabaseWithOneList(directory)
        let companion = WriteCompanion { connection in try connection.execute("INSERT INTO list(name) VALUES ('companion')") }
        func companions() throws -> Int {
            try database.read { try $0.fetchScalar(Int.self, "SELECT count(*) FROM list WHERE name = 'companion'") } ?? 0
        }

        try database.withCompanion(companion) {
            #expect(throws: Refused.self) {
                try database.write(author: "test") { connection in
                    try connection.execute("INSERT INTO list(name) VALUES ('rolled back')")
                    throw Refused()
                }
            }
            #expect(!companion.hasCommitted)
            #expect(try companions() == 0, "rolled back with its write")
            try database.write(author: "test") { try $0.execute("INSERT INTO item(list_id, title) VALUES (1, 'first')") }
            try database.write(author: "test") { try $0.execute("INSERT INTO item(list_id, title) VALUES (1, 'second')") }
        }
        #expect(companion.hasCommitted)
        #expect(try companions() == 1)
        try database.write(author: "test") { try $0.execute("INSERT INTO item(list_id, title) VALUES (1, 'outside')") }
        #expect(try companions() == 1)
    }

    @Test func anotherDatabasesWritesLeaveItAlone() throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabaseWithOneList(directory)
        let other = try makeDatabaseWithOneList(directory, name: "staging.sqlite")
        let companion = WriteCompanion { connection in try connection.execute("INSERT INTO list(name) VALUES ('companion')") }
        try database.withCompanion(companion) {
            try other.write(author: "test") { try $0.execute("INSERT INTO item(list_id, title) VALUES (1, 'staged')") }
        }
        #expect(!companion.hasCommitted)
        #expect(try other.read { try $0.fetchScalar(Int.self, "SELECT count(*) FROM list WHERE name = 'companion'") } == 0)
    }
}
