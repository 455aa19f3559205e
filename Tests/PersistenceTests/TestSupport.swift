import CSQLite
import Foundation
@testable import Persistence

/// A fresh directory per test, removed when the test's scope ends.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("PersistenceTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// A small schema used by most tests: lists and their items, items cascade with their list.
enum TestSchema {
    static let lists = Migration(version: 1, name: "lists") { db in
        try db.execute("CREATE TABLE list(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
    }
    static let items = Migration(version: 2, name: "items") { db in
        try db.execute("""
            CREATE TABLE item(id INTEGER PRIMARY KEY,
                              list_id INTEGER NOT NULL REFERENCES list(id) ON DELETE CASCADE,
                              title TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0);
            CREATE INDEX item_by_list ON item(list_id);
            """)
    }
    static let all = [lists, items]
}

/// A database of `TestSchema` holding one list, (1, "A").
func makeDatabaseWithOneList(_ directory: TemporaryDirectory, name: String = "observed.sqlite") throws -> Database {
    let database = try Database(path: directory.path(name), migrations: TestSchema.all)
    try database.write(author: "setup") { db in try db.execute("INSERT INTO list(id, name) VALUES (1, 'A')") }
    return database
}

struct Item: FetchableRecord, Equatable, Sendable {
    let id: Int64
    let listID: Int64
    let title: String
    let done: Bool

    init(row: Row) throws {
        id = row["id"]
        listID = row["list_id"]
        title = row["title"]
        done = row["done"]
    }
}

/// Polls `condition` until it holds (notifications arrive on another thread). The timeout is only
/// how long a failure takes to report, long enough for a loaded machine: a passing test returns
/// as soon as the condition holds.
func eventually(timeout: Duration = .seconds(10), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}

private final class StepCounter { var steps = 0 }

/// Runs `body` on a reader and counts the SQLite VM steps it takes: a measure of work that does
/// not depend on the machine's speed, to show a query is bounded.
func countingSteps<T>(_ database: Database, _ body: (Connection) throws -> T) throws -> (T, steps: Int) {
    let counter = StepCounter()
    let value = try database.read { db in
        sqlite3_progress_handler(db.handle, 1, { context in
            Unmanaged<StepCounter>.fromOpaque(context!).takeUnretainedValue().steps += 1
            return 0
        }, Unmanaged.passUnretained(counter).toOpaque())
        defer { sqlite3_progress_handler(db.handle, 0, nil, nil) }
        return try body(db)
    }
    return (value, counter.steps)
}
