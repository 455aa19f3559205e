import Foundation
import Testing
@testable import Persistence

/// Sectioned queries: sections (id + records in query order, a count each) paged by key, and
/// kept live by a ResultsObserver through inserts, moves between sections and deletes.
@Suite struct SectionPageTests {
    /// Items grouped by their list's name, stored on the item (`list_name`; NULL: no list).
    static let grouped = Migration(version: 3, name: "grouped items") { db in
        try db.execute("""
            ALTER TABLE item ADD COLUMN list_name TEXT;
            CREATE INDEX item_by_list_name ON item(list_name, title);
            """)
    }

    func makeDatabase(_ directory: TemporaryDirectory) throws -> Database {
        let database = try Database(path: directory.path("sections.sqlite"), migrations: TestSchema.all + [Self.grouped])
        try database.write(author: "setup") { db in
            try db.execute("INSERT INTO list(id, name) VALUES (1, 'A')")
            try db.execute("""
                INSERT INTO item(id, list_id, title, list_name) VALUES
                  (1, 1, 'c', 'Kyoto'), (2, 1, 'a', 'Kyoto'), (3, 1, 'b', 'Kyoto'),
                  (4, 1, 'x', 'Annecy'), (5, 1, 'n', NULL), (6, 1, 'y', 'Tromsø')
                """)
        }
        return database
    }

    let byListName = FetchDescriptor(table: "item", orderBy: "title", sectionKey: "list_name")

    func outline(_ page: SectionPage<Item>) -> [String] {
        page.sections.map { section in
            let name = if case .text(let text) = section.key { text } else { "none" }
            return "\(name) \(section.count): \(section.records.map(\.title).joined())"
        }
    }

    @Test func sectionsComeInKeyOrderWithTheKeylessLastAndRecordsInQueryOrder() throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabase(directory)
        let page = try database.read { try $0.fetchSections(Item.self, byListName, paging: SectionPaging(sectionLimit: 10, recordsPerSection: 2)) }
        #expect(outline(page) == ["Annecy 1: x", "Kyoto 3: ab", "Tromsø 1: y", "none 1: n"])
        #expect(page.sections[1].hasMore)
        #expect(!page.hasMore)
    }

    @Test func pagesFollowTheLastKeyShown() throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabase(directory)
        func page(after: DatabaseValue?) throws -> SectionPage<Item> {
            try database.read { try $0.fetchSections(Item.self, byListName, paging: SectionPaging(after: after, sectionLimit: 2, recordsPerSection: 5)) }
        }
        let first = try page(after: nil)
        #expect(outline(first) == ["Annecy 1: x", "Kyoto 3: abc"])
        #expect(first.hasMore)
        let second = try page(after: first.sections.last?.key)
        #expect(outline(second) == ["Tromsø 1: y", "none 1: n"])
        #expect(!second.hasMore)
        #expect(try page(after: .null).sections.isEmpty)
        // Exactly a page of keyed sections with the keyless one still to come.
        let oneMore = try page(after: .text("Annecy"))
        #expect(outline(oneMore) == ["Kyoto 3: abc", "Tromsø 1: y"])
        #expect(oneMore.hasMore)
    }

    @Test func thePredicateNarrowsSectionsAndCounts() throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabase(directory)
        var open = byListName
        open.predicate = "title <> ?"
        open.arguments = [DatabaseValue.text("a")]
        let page = try database.read { try $0.fetchSections(Item.self, open, paging: SectionPaging(sectionLimit: 10, recordsPerSection: 10)) }
        #expect(outline(page) == ["Annecy 1: x", "Kyoto 2: bc", "Tromsø 1: y", "none 1: n"])
    }

    @Test func anObservedPageFollowsAnInsertAMoveBetweenSectionsAndADelete() async throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabase(directory)
        let observer = try ResultsObserver<SectionPage<Item>>(
            database: database, sectionedDescriptor: byListName, paging: SectionPaging(sectionLimit: 10, recordsPerSection: 3))
        let seen = SharedState<[[String]]>([])
        let subscription = observer.subscribe { read, _ in seen.withLock { $0.append(outline(read.value)) } }

        try database.write(author: "test") { db in try db.execute("INSERT INTO item(id, list_id, title, list_name) VALUES (7, 1, 'b', 'Annecy')") }
        #expect(await eventually { seen.withLock(\.count) == 1 })
        #expect(seen.withLock(\.last) == ["Annecy 2: bx", "Kyoto 3: abc", "Tromsø 1: y", "none 1: n"])

        try database.write(author: "test") { db in try db.execute("UPDATE item SET list_name = 'Tromsø' WHERE id = 2") }
        #expect(await eventually { seen.withLock(\.count) == 2 })
        #expect(seen.withLock(\.last) == ["Annecy 2: bx", "Kyoto 2: bc", "Tromsø 2: ay", "none 1: n"])

        try database.write(author: "test") { db in try db.execute("DELETE FROM item WHERE id IN (4, 7, 5)") }
        #expect(await eventually { seen.withLock(\.count) == 3 })
        #expect(seen.withLock(\.last) == ["Kyoto 2: bc", "Tromsø 2: ay"])
        withExtendedLifetime(subscription) {}
    }
}
