import Foundation
import Persistence

/// The SQL behind undo: copying rows into `DeletedTrip` / `DeletedActivity` and back.
enum DeletedRows {
    /// Trip's columns as they are copied; `activity_count` and `completed_activity_count` are not,
    /// the activities' triggers count them again as they come back.
    static let tripColumns = """
        name, name_folded, subtitle, collection, creation_date, thumbnail, thumbnail_format,
        thumbnail_width, thumbnail_height, photo_version, photo_width, photo_height, image_id,
        destination, latitude, longitude, place, start_date, end_date
        """
    static let activityColumns = "name, name_folded, is_complete, date_created, date_edited"

    static func deletion(id: Int64, notBefore cutoff: Date, on connection: Connection) throws -> Deletion? {
        guard let row = try connection.fetchOne("""
            SELECT entity, name, trip_id, date_deleted FROM Deletion WHERE id = ? AND date_deleted >= ?
            """, [id, cutoff]), let kind = Deletion.Kind(rawValue: row["entity"]) else { return nil }
        return Deletion(id: id, kind: kind, name: row["name"], tripID: row["trip_id"], date: row["date_deleted"])
    }

    static func copyTrip(_ tripID: Int64, as deletionID: Int64, on connection: Connection) throws {
        try connection.execute("""
            INSERT INTO DeletedTrip (deletion_id, id, \(tripColumns)) SELECT ?, id, \(tripColumns) FROM Trip WHERE id = ?
            """, [deletionID, tripID])
    }

    /// Copies the activities `condition` (SQL over Activity) picks.
    static func copyActivities(where condition: String, _ arguments: [any DatabaseValueConvertible], as deletionID: Int64,
                               on connection: Connection) throws {
        try connection.execute("""
            INSERT INTO DeletedActivity (deletion_id, id, trip_id, \(activityColumns))
            SELECT ?, id, trip_id, \(activityColumns) FROM Activity WHERE \(condition)
            """, [deletionID] + arguments)
    }

    /// Inserts the deleted trip again, under its old id unless another trip has it now; returns its id.
    static func restoreTrip(of deletionID: Int64, on connection: Connection) throws -> Int64 {
        try connection.execute("""
            INSERT INTO Trip (id, \(tripColumns))
            SELECT CASE WHEN EXISTS (SELECT 1 FROM Trip WHERE Trip.id = DeletedTrip.id) THEN NULL ELSE id END, \(tripColumns)
            FROM DeletedTrip WHERE deletion_id = ?
            """, [deletionID])
        return connection.lastInsertedRowID
    }

    /// Inserts the deleted activities again into `tripID`, one at a time so that each old id
    /// taken since is seen as such and replaced.
    static func restoreActivities(of deletionID: Int64, toTrip tripID: Int64, on connection: Connection) throws {
        let ids = try connection.fetchAll("SELECT id FROM DeletedActivity WHERE deletion_id = ? ORDER BY id", [deletionID])
            .map { row -> Int64 in row["id"] }
        for id in ids {
            try connection.execute("""
                INSERT INTO Activity (id, trip_id, \(activityColumns))
                SELECT CASE WHEN EXISTS (SELECT 1 FROM Activity WHERE Activity.id = ?2) THEN NULL ELSE ?2 END, ?3, \(activityColumns)
                FROM DeletedActivity WHERE deletion_id = ?1 AND id = ?2
                """, [deletionID, id, tripID])
        }
    }

    /// Deletes the deletions `condition` picks with their copies, and the image rows only they
    /// kept; returns the photo files no row references any more.
    @discardableResult
    static func forget(deletionsWhere condition: String, _ arguments: [any DatabaseValueConvertible],
                       on connection: Connection) throws -> [String] {
        let gone = try connection.fetchAll("SELECT id FROM Deletion WHERE \(condition)", arguments).map { row -> Int64 in row["id"] }
        guard !gone.isEmpty else { return [] }
        let list = gone.map(String.init).joined(separator: ",")
        let images = try connection.fetchAll("""
            SELECT image_id, file_name, display_file_name FROM DeletedTrip JOIN TripImage ON TripImage.id = image_id
            WHERE deletion_id IN (\(list))
            """)
        try connection.execute("DELETE FROM Deletion WHERE id IN (\(list))")
        try connection.execute("DELETE FROM DeletedTrip WHERE deletion_id IN (\(list))")
        try connection.execute("DELETE FROM DeletedActivity WHERE deletion_id IN (\(list))")
        for row in images {
            try connection.execute("""
                DELETE FROM TripImage WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM Trip WHERE image_id = ?1)
                    AND NOT EXISTS (SELECT 1 FROM DeletedTrip WHERE image_id = ?1)
                """, [row["image_id"] as Int64])
        }
        let files = images.flatMap { row in [row["file_name"] as String, row["display_file_name"] as String?].compactMap { $0 } }
        return try PhotoRows.unreferenced(files, on: connection)
    }

    /// Lets go of every deletion, as an import that replaces the trips does (it then deletes the
    /// image rows no trip shows itself).
    static func forgetAll(on connection: Connection) throws {
        try connection.execute("DELETE FROM Deletion; DELETE FROM DeletedTrip; DELETE FROM DeletedActivity")
    }
}
