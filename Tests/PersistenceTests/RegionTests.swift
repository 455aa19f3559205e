import Testing
@testable import Persistence

/// `TestSchema` plus what a query may read besides plain tables: a view, a WITHOUT ROWID count
/// and an FTS5 index kept by triggers on `item`, and a table no test query reads.
enum RegionSchema {
    static let derived = Migration(version: 3, name: "view, derived tables") { db in
        try db.execute("""
            CREATE VIEW item_with_list AS SELECT item.title, list.name FROM item JOIN list ON list.id = item.list_id;
            CREATE TABLE item_count(list_id INTEGER PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
            CREATE VIRTUAL TABLE item_search USING fts5(title, content = 'item', content_rowid = 'id', tokenize = 'trigram');
            CREATE TRIGGER item_added AFTER INSERT ON item BEGIN
                INSERT INTO item_count(list_id, n) VALUES (NEW.list_id, 1) ON CONFLICT DO UPDATE SET n = n + 1;
                INSERT INTO item_search(rowid, title) VALUES (NEW.id, NEW.title);
            END;
            CREATE TABLE unrelated(id INTEGER PRIMARY KEY, note TEXT);
            """)
    }

    static func open(_ directory: TemporaryDirectory) throws -> Database {
        let database = try Database(path: directory.path("regions.sqlite"), migrations: TestSchema.all + [derived])
        try database.write(author: "setup") { db in try db.execute("INSERT INTO list(id, name) VALUES (1, 'A')") }
        return database
    }
}

@Suite struct RegionTests {
    /// The region SQLite reports for `sql`, and the tracked tables whose commits may change it.
    private func regions(_ sql: String, in database: Database) throws -> (read: Set<String>, observed: DatabaseRegion) {
        let read = try database.read { db in try db.trackingRegion { try db.fetchAll(sql) }.1 }
        return (read.tables, try database.readTracking { db in try db.fetchAll(sql) }.region)
    }

    /// Columns read of each table; `[]`: its rows alone.
    private func columns(_ columnsByTable: [String: Set<String>]) -> DatabaseRegion {
        columnsByTable.reduce(DatabaseRegion()) { $0.union(DatabaseRegion(table: $1.key, columns: $1.value)) }
    }

    @Test func regionsComeFromTheSQL() throws {
        let directory = try TemporaryDirectory()
        let database = try RegionSchema.open(directory)
        #expect(try regions("SELECT title FROM item WHERE done = 0", in: database).observed == columns(["item": ["title", "done"]]))
        #expect(try regions("SELECT count(*) FROM item", in: database).observed == columns(["item": []]))
        #expect(try regions("SELECT item.title FROM item JOIN list ON list.id = item.list_id", in: database).observed
                == columns(["item": ["title", "list_id"], "list": ["id"]]))
        #expect(try regions("SELECT name FROM list WHERE id IN (SELECT list_id FROM item)", in: database).observed
                == columns(["item": ["list_id"], "list": ["id", "name"]]))
        #expect(try regions("SELECT EXISTS (SELECT 1 FROM item)", in: database).observed == columns(["item": []]))
        // A view is reported with the tables under it; only those reach commits.
        let view = try regions("SELECT * FROM item_with_list", in: database)
        #expect(view.read == ["item_with_list", "item", "list"])
        #expect(view.observed == columns(["item": ["title", "list_id"], "list": ["id", "name"]]))
    }

    @Test func tablesKeptByTriggersAreObservedThroughTheTablesThatFeedThem() throws {
        let directory = try TemporaryDirectory()
        let database = try RegionSchema.open(directory)
        let count = try regions("SELECT n FROM item_count WHERE list_id = 1", in: database)
        #expect(count.read == ["item_count"])
        // Its only trigger is on inserts: it changes with item's rows, never with their columns.
        #expect(count.observed == columns(["item": []]))
        // FTS5 reports the virtual table itself (the first statement using it on a connection may
        // also report the schema and shadow tables it reads while connecting).
        let search = try regions("SELECT rowid FROM item_search WHERE item_search MATCH 'abc'", in: database)
        #expect(search.read.contains("item_search"))
        #expect(search.observed == columns(["item": []]))
        // Neither is history: commits never report them.
        #expect(database.historyEntities == ["list", "item", "unrelated"])
    }

    @Test func aStatementKeepsItsRegionAcrossRuns() throws {
        let directory = try TemporaryDirectory()
        let database = try RegionSchema.open(directory)
        try database.read { db in
            let statement = try db.prepare("SELECT title FROM list JOIN item ON item.list_id = list.id")
            #expect(statement.region == columns(["item": ["title", "list_id"], "list": ["id"]]))
            for _ in 0..<2 {
                let ((), region) = try db.trackingRegion { _ = try statement.fetchAll() }
                #expect(region == statement.region)
            }
            // Nested tracking adds to the enclosing region.
            let (_, outer) = try db.trackingRegion {
                _ = try db.fetchAll("SELECT 1 FROM unrelated")
                return try db.trackingRegion { try db.fetchAll("SELECT 1 FROM list") }.1
            }
            #expect(outer == columns(["unrelated": [], "list": []]))
        }
    }

    @Test func observerRunsAgainOnlyAfterCommitsToItsRegion() throws {
        let directory = try TemporaryDirectory()
        let database = try RegionSchema.open(directory)
        let fetchCount = SharedState(0)
        // Branches: the items are read only once the list is called "B".
        let observer = try ResultsObserver(database: database) { db in
            fetchCount.withLock { $0 += 1 }
            let name = try db.fetchScalar(String.self, "SELECT name FROM list WHERE id = 1")
            return name == "B" ? try db.fetchScalar(Int.self, "SELECT count(*) FROM item") ?? 0 : -1
        }
        func write(_ sql: String) throws {
            try database.write(author: "test") { db in try db.execute(sql) }
            database.notifier.queue.sync {}
        }
        #expect(fetchCount.withLock { $0 } == 1)
        try write("INSERT INTO unrelated(note) VALUES ('x')")
        try write("INSERT INTO item(list_id, title) VALUES (1, 'a')")
        #expect(fetchCount.withLock { $0 } == 1)
        try write("UPDATE list SET name = 'B'")
        #expect(fetchCount.withLock { $0 } == 2)
        #expect(observer.value == 1 && observer.region == columns(["list": ["id", "name"], "item": []]))
        try write("INSERT INTO item(list_id, title) VALUES (1, 'b')")
        #expect(fetchCount.withLock { $0 } == 3)
        #expect(observer.value == 2)
    }

    @Test func observerOfATriggerMaintainedTableSeesItChange() throws {
        let directory = try TemporaryDirectory()
        let database = try RegionSchema.open(directory)
        let count = try ResultsObserver(database: database) { db in
            try db.fetchScalar(Int.self, "SELECT n FROM item_count WHERE list_id = 1") ?? 0
        }
        try database.write(author: "test") { db in try db.execute("INSERT INTO item(list_id, title) VALUES (1, 'a')") }
        database.notifier.queue.sync {}
        #expect(count.value == 1)
    }

    @Test func hasChangesTellsWhetherTheRegionChangedAfterAToken() throws {
        let directory = try TemporaryDirectory()
        let database = try RegionSchema.open(directory)
        let start = try database.latestHistoryToken()
        try database.write(author: "test") { db in try db.execute("INSERT INTO item(list_id, title) VALUES (1, 'a')") }
        let items = DatabaseRegion(tables: ["item"])
        #expect(try database.hasChanges(in: items, after: start))
        #expect(try !database.hasChanges(in: items, after: database.latestHistoryToken()))
        #expect(try !database.hasChanges(in: DatabaseRegion(tables: ["list"]), after: start))
        #expect(try !database.hasChanges(in: DatabaseRegion(), after: start))
        // Derived tables are answered through what feeds them; the full database by any change.
        #expect(try database.hasChanges(in: DatabaseRegion(tables: ["item_count"]), after: start))
        #expect(try database.hasChanges(in: .fullDatabase, after: start))
    }

    /// One transaction of many changes: the answer must not walk them (the live updates' check
    /// once loaded every change of the first matching transaction).
    @Test func hasChangesIsBoundedByTransactionsNotChanges() throws {
        let directory = try TemporaryDirectory()
        let database = try RegionSchema.open(directory)
        let start = try database.latestHistoryToken()
        try database.write(author: "bulk") { db in
            try db.execute("""
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
                INSERT INTO unrelated(note) SELECT 'x' FROM n
                """)
            try db.execute("UPDATE list SET name = 'B'")
        }
        let (answers, steps) = try countingSteps(database) { db in
            try [["list"], ["item"], nil].map { try HistoryStore.hasChanges(to: $0, after: start, on: db) }
        }
        #expect(answers == [true, false, true])
        #expect(steps < 500)
    }
}
