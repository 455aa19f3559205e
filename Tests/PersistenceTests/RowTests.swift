import Testing
@testable import Persistence

@Suite struct RowTests {
    /// Lookups by name guess the column after the last one found; a wrong guess must never
    /// answer, in whatever order, on whatever row, and with names given twice.
    @Test func columnsAreFoundByNameInAnyOrder() throws {
        let columns = RowColumns(names: ["id", "name", "id", "Note", "count"])
        let rows = (0..<3).map { Row(columns: columns, values: [.integer($0), .text("n\($0)"), .integer(-1), .null, .integer(10 + $0)]) }
        for (number, row) in rows.enumerated() {
            #expect(row["id"] as Int64 == Int64(number))
            #expect(row["name"] as String == "n\(number)")
            // "id" again is the first column of that name, not the third.
            #expect(row["id"] as Int64 == Int64(number))
            #expect(row["count"] as Int == 10 + number)
            #expect(row.index(of: "note") == 3)
            #expect(row.index(of: "NAME") == 1)
            #expect(row.index(of: "missing") == nil)
        }
        #expect(columns.index(of: "count") == 4)
        #expect(columns.index(of: "id") == 0)
    }
}
