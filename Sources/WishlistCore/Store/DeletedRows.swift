import Foundation
import Persistence

/// The SQL behind undo: copying rows into `DeletedTrip` / `DeletedActivity` / `DeletedPhoto` and back.
enum DeletedRows {
    /// Trip's columns as they are copied; `activity_count` and `completed_activity_count` are not,
    /// the activities' triggers count them again as they come back.
    static let tripColumns = """
        name, name_folded, subtitle, collection, creation_date,
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

    /// The copies kept of each table's rows, and the columns copied after `id` and `trip_id`.
    private static let copies = ["Activity": ("DeletedActivity", activityColumns), "Photo": ("DeletedPhoto", Schema.galleryColumns)]

    /// Copies the rows of `table` (Activity or Photo) that `condition`, over `rowID`, picks.
    static func copy(_ table: String, where condition: String, _ rowID: Int64, as deletionID: Int64,
                     on connection: Connection) throws {
        let (copyTable, columns) = copies[table]!
        try connection.execute("""
            INSERT INTO \(copyTable) (deletion_id, id, trip_id, \(columns))
            SELECT ?, id, trip_id, \(columns) FROM \(table) WHERE \(condition)
            """, [deletionID, rowID])
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

    /// Inserts the deleted activities again into `tripID`.
    static func restoreActivities(of deletionID: Int64, toTrip tripID: Int64, on connection: Connection) throws {
        try restore("Activity", of: deletionID, toTrip: tripID, on: connection)
    }

    /// Inserts the deleted photos again into `tripID`, at the places they had; a picture shown
    /// there again meanwhile is not added twice.
    static func restorePhotos(of deletionID: Int64, toTrip tripID: Int64, on connection: Connection) throws {
        try restore("Photo", of: deletionID, toTrip: tripID, on: connection)
    }

    /// One row at a time, so that each old id taken since is seen as such and replaced.
    private static func restore(_ table: String, of deletionID: Int64, toTrip tripID: Int64, on connection: Connection) throws {
        let (copyTable, columns) = copies[table]!
        let ids = try connection.fetchAll("SELECT id FROM \(copyTable) WHERE deletion_id = ? ORDER BY id", [deletionID])
            .map { row -> Int64 in row["id"] }
        for id in ids {
            try connection.execute("""
                INSERT OR IGNORE INTO \(table) (id, trip_id, \(columns))
                SELECT CASE WHEN EXISTS (SELECT 1 FROM \(table) WHERE \(table).id = ?2) THEN NULL ELSE ?2 END, ?3, \(columns)
                FROM \(copyTable) WHERE deletion_id = ?1 AND id = ?2
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
            SELECT id, file_name, display_file_name FROM TripImage
            WHERE id IN (SELECT image_id FROM DeletedPhoto WHERE deletion_id IN (\(list)))
            """)
        for table in ["Deletion WHERE id", "DeletedTrip WHERE deletion_id", "DeletedActivity WHERE deletion_id",
                      "DeletedPhoto WHERE deletion_id"] {
            try connection.execute("DELETE FROM \(table) IN (\(list))")
        }
        for row in images {
            try connection.execute("DELETE FROM TripImage WHERE id = ?1 AND \(Schema.imageUnused("?1"))", [row["id"] as Int64])
        }
        return try PhotoRows.unreferenced(PhotoRows.files(of: images), on: connection)
    }

    /// Lets go of every deletion, as an import that replaces the trips does (it then deletes the
    /// image rows no trip shows itself).
    static func forgetAll(on connection: Connection) throws {
        try connection.execute("DELETE FROM Deletion; DELETE FROM DeletedTrip; DELETE FROM DeletedActivity; DELETE FROM DeletedPhoto")
    }
}
