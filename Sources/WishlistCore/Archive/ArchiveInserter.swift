import Foundation
import Persistence

/// Inserts an archive's trips and activities with multi-row INSERTs of a fixed size.
///
/// Why not one INSERT per row: the search index is kept by triggers, so every INSERT runs in a
/// statement savepoint, and FTS5 (3.40) writes its pending index data to disk at each savepoint.
/// One statement per row made one tiny index segment per row, then merged them: 45 % of the
/// import time went to `sqlite3VtabSavepoint` in a profile. One statement per batch writes the
/// index once per batch (see Benchmarks/README.md).
struct ArchiveInserter {
    static let rowsPerStatement = 500

    private let connection: Connection
    private let importTime: Date
    private var nextTripID: Int64
    private var trips: [any DatabaseValueConvertible] = []
    private var activities: [any DatabaseValueConvertible] = []

    /// Trip ids continue after the largest one in the table (the import empties it first, so
    /// they start at 1 as they would one row at a time); activities need them before their trip
    /// row is written.
    init(on connection: Connection, importTime: Date) throws {
        self.connection = connection
        self.importTime = importTime
        nextTripID = (try connection.fetchScalar(Int64.self, "SELECT max(id) FROM Trip") ?? 0) + 1
    }

    mutating func insert(_ trip: ArchiveTrip) throws {
        let creationDate = trip.creationDate ?? importTime
        let tripID = nextTripID
        nextTripID += 1
        trips += [tripID, trip.name, trip.name.folded, trip.subtitle, trip.collection, creationDate]
        for activity in trip.activities {
            let dateCreated = activity.dateCreated ?? creationDate
            activities += [tripID, activity.name, activity.name.folded, activity.isComplete, dateCreated,
                           activity.dateEdited ?? dateCreated]
        }
        if trips.count == Self.rowsPerStatement * Self.tripColumns.count {
            try flush(full: true)
        }
    }

    /// Writes the rows still waiting; call once after the last trip.
    mutating func finish() throws {
        try flush(full: false)
    }

    private static let tripColumns = ["id", "name", "name_folded", "subtitle", "collection", "creation_date"]
    private static let activityColumns = ["trip_id", "name", "name_folded", "is_complete", "date_created", "date_edited"]

    /// Trips first (the activities refer to them). With `full`, activities are written in whole
    /// statements only and the remainder waits for the next trips, so the statement cache holds
    /// one SQL text per table plus the two final remainders.
    private mutating func flush(full: Bool) throws {
        try write(&trips, into: "Trip", columns: Self.tripColumns, wholeStatementsOnly: false)
        try write(&activities, into: "Activity", columns: Self.activityColumns, wholeStatementsOnly: full)
    }

    private func write(_ values: inout [any DatabaseValueConvertible], into table: String, columns: [String],
                       wholeStatementsOnly: Bool) throws {
        let statementSize = Self.rowsPerStatement * columns.count
        var start = 0
        while values.count - start >= statementSize || (!wholeStatementsOnly && start < values.count) {
            let end = min(start + statementSize, values.count)
            let rows = (end - start) / columns.count
            let row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
            try connection.execute("""
                INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES \
                \(Array(repeating: row, count: rows).joined(separator: ", "))
                """, Array(values[start..<end]))
            start = end
        }
        values.removeFirst(start)
    }
}
