import Foundation
import Testing
@testable import Persistence

/// A codable attribute as stored today, and the shapes before and after it.
private struct Badge: Codable, Hashable, Sendable {
    var name: String
    var level: Int?
}

private struct OldBadge: Codable, Hashable, Sendable {
    var name: String
}

private struct NewerBadge: Codable, Hashable, Sendable {
    var name: String
    var level: Int?
    var colour: String
}

private struct Pin: FetchableRecord, Equatable, Sendable {
    let title: String
    let badge: Badge?

    init(row: Row) throws {
        title = row["title"]
        // An undecodable value leaves the row readable, without it.
        badge = (try? row.decode("badge", as: CodableAttribute<Badge>?.self))??.value
    }
}

@Suite struct CodableAttributeTests {
    private static let pins = Migration(version: 1, name: "pins") { db in
        try db.execute("CREATE TABLE pin(id INTEGER PRIMARY KEY, title TEXT NOT NULL, badge \(CodableAttributeColumn.declaredType))")
    }

    private func database(_ directory: TemporaryDirectory) throws -> Database {
        try Database(path: directory.path("pins.sqlite"), migrations: [Self.pins])
    }

    private func insert(_ database: Database, _ title: String, _ badge: any DatabaseValueConvertible) throws {
        try database.write(author: "test") { db in try db.execute("INSERT INTO pin(title, badge) VALUES (?, ?)", [title, badge]) }
    }

    private func pins(_ database: Database, _ descriptor: FetchDescriptor = FetchDescriptor(table: "pin", orderBy: "id")) throws -> [Pin] {
        try database.read { db in try db.fetchAll(Pin.self, descriptor) }
    }

    @Test func roundTripsAsJSONTextKeptAsItIs() throws {
        let directory = try TemporaryDirectory()
        let database = try database(directory)
        try insert(database, "a", CodableAttribute(Badge(name: "Kyoto", level: 3)))
        #expect(try pins(database).map(\.badge) == [Badge(name: "Kyoto", level: 3)])
        let stored = try database.read { db in try db.fetchScalar(String.self, "SELECT badge FROM pin") }
        #expect(stored == #"{"level":3,"name":"Kyoto"}"#)
    }

    @Test func olderAndNewerShapesDecodeAndAnUndecodableValueLeavesTheRowReadable() throws {
        let directory = try TemporaryDirectory()
        let database = try database(directory)
        try insert(database, "old", CodableAttribute(OldBadge(name: "Annecy")))
        try insert(database, "newer", CodableAttribute(NewerBadge(name: "Hilo", level: 1, colour: "teal")))
        try insert(database, "broken", "{not json")
        try insert(database, "other shape", #"{"level":"high"}"#)
        try insert(database, "none", nil as String?)
        let read = try pins(database)
        #expect(read.map(\.title) == ["old", "newer", "broken", "other shape", "none"])
        #expect(read.map(\.badge) == [Badge(name: "Annecy"), Badge(name: "Hilo", level: 1), nil, nil, nil])
    }

    @Test(arguments: [
        FetchDescriptor(table: "pin", predicate: "badge IS NOT NULL"),
        FetchDescriptor(table: "pin", predicate: "json_extract(\"BADGE\", '$.name') = ?", arguments: ["Kyoto"]),
        FetchDescriptor(table: "pin", predicate: "id IN (SELECT id FROM pin AS other WHERE other.badge > '')"),
        FetchDescriptor(table: "pin", orderBy: "badge DESC"),
        FetchDescriptor(table: "pin", sectionKey: "badge"),
    ])
    func filteringSortingOrSectioningByOneIsRefused(_ descriptor: FetchDescriptor) throws {
        let directory = try TemporaryDirectory()
        let database = try database(directory)
        try insert(database, "a", CodableAttribute(Badge(name: "Kyoto")))
        let error = #expect(throws: DatabaseError.self) {
            try database.read { db in
                if descriptor.sectionKey == nil {
                    _ = try db.fetchAll(Pin.self, descriptor)
                } else {
                    _ = try db.fetchSections(Pin.self, descriptor)
                }
            }
        }
        if descriptor.sectionKey != nil {
            #expect(throws: DatabaseError.self, "a page of sections too") {
                try database.read { db in
                    _ = try db.fetchSections(Pin.self, descriptor, paging: SectionPaging(after: nil, sectionLimit: 5, recordsPerSection: 5))
                }
            }
        }
        #expect(error?.message == "pin.badge holds a codable attribute (JSON the database does not look into): it cannot be used to filter, sort or section a query")
        #expect(error?.sql == descriptor.sql)
        #expect(throws: DatabaseError.self) { try ResultsObserver<[Pin]>(database: database, descriptor: descriptor) }
    }

    @Test func otherColumnsStillFilterAndSortAndTheRowsCarryTheAttribute() throws {
        let directory = try TemporaryDirectory()
        let database = try database(directory)
        try insert(database, "b", CodableAttribute(Badge(name: "Hilo")))
        try insert(database, "a", CodableAttribute(Badge(name: "Kyoto")))
        // A string literal naming the column is no read of it.
        let descriptor = FetchDescriptor(table: "pin", predicate: "title <> 'badge'", orderBy: "title")
        #expect(try pins(database, descriptor).map(\.badge?.name) == ["Kyoto", "Hilo"])
        #expect(try pins(database, descriptor).count == 2)
    }
}
