import Foundation
import Persistence

/// The INSERTs shared by the app's writes, seeding and import. `Connection.execute` reuses one
/// prepared statement per SQL text, so bulk imports pay for parsing once.
enum Rows {
    /// With `id`, the trip takes it (an import keeping an archive's ids); else the next one.
    static func insertTrip(_ fields: TripFields, creationDate: Date, id: Int64? = nil, on connection: Connection) throws -> Int64 {
        try connection.execute("""
            INSERT INTO Trip (\(TripFields.columns), creation_date, id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, fields.values + [creationDate, id])
        return connection.lastInsertedRowID
    }

    static func updateTrip(id: Int64, _ fields: TripFields, on connection: Connection) throws {
        let assignments = TripFields.columns.split(separator: ", ").map { "\($0) = ?" }.joined(separator: ", ")
        try connection.execute("UPDATE Trip SET \(assignments) WHERE id = ?", fields.values + [id])
    }

    static func insertActivity(tripID: Int64, name: String, isComplete: Bool, dateCreated: Date, dateEdited: Date,
                               on connection: Connection) throws -> Int64 {
        try connection.execute("""
            INSERT INTO Activity (trip_id, name, name_folded, is_complete, date_created, date_edited)
            VALUES (?, ?, ?, ?, ?, ?)
            """, [tripID, name, name.folded, isComplete, dateCreated, dateEdited])
        return connection.lastInsertedRowID
    }
}

/// The keys of the Preference table.
enum PreferenceKey: String {
    case activitySortOrder
    /// Present once the sample data was offered: seeding never happens twice, even after the
    /// user deleted every trip.
    case seeded
}

enum Preferences {
    static func value(_ key: PreferenceKey, on connection: Connection) throws -> String? {
        try connection.fetchScalar(String.self, "SELECT value FROM Preference WHERE key = ?", [key.rawValue])
    }

    static func set(_ key: PreferenceKey, to value: String, on connection: Connection) throws {
        try connection.execute("""
            INSERT INTO Preference (key, value) VALUES (?, ?)
            ON CONFLICT (key) DO UPDATE SET value = excluded.value WHERE value <> excluded.value
            """, [key.rawValue, value])
    }
}
