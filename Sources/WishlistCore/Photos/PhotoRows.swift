import Persistence

/// The SQL behind trip photos: attaching a stored photo to a trip and finding the files a
/// change lets go of.
enum PhotoRows {
    /// Points the trip at the photo's TripImage row (the existing one when the same picture is
    /// already stored) and puts the thumbnail, sizes and version on the trip row.
    static func attach(_ photo: StoredPhoto, toTrip tripID: Int64, on connection: Connection) throws {
        let imageID = try imageID(for: photo, on: connection)
        let prepared = photo.prepared
        try connection.execute("""
            UPDATE Trip SET thumbnail = ?, thumbnail_format = ?, thumbnail_width = ?, thumbnail_height = ?,
                photo_version = ?, photo_width = ?, photo_height = ?, image_id = ?
            WHERE id = ?
            """, [prepared.thumbnail.bytes, prepared.thumbnail.format.rawValue, prepared.thumbnail.width,
                  prepared.thumbnail.height, photo.version, prepared.displayWidth, prepared.displayHeight, imageID, tripID])
    }

    private static func imageID(for photo: StoredPhoto, on connection: Connection) throws -> Int64 {
        if let existing = try connection.fetchScalar(Int64.self, "SELECT id FROM TripImage WHERE file_name = ?",
                                                      [photo.original.name]) {
            return existing
        }
        try connection.execute("""
            INSERT INTO TripImage (file_name, media_type, byte_count, width, height) VALUES (?, ?, ?, ?, ?)
            """, [photo.original.name, photo.prepared.format.mediaType, photo.original.byteCount,
                  photo.prepared.width, photo.prepared.height])
        return connection.lastInsertedRowID
    }

    /// Gives `tripID` the photo `sourceTripID` shows (its image row, thumbnail and sizes).
    static func copyPhoto(fromTrip sourceTripID: Int64, toTrip tripID: Int64, on connection: Connection) throws {
        try connection.execute("""
            UPDATE Trip SET (thumbnail, thumbnail_format, thumbnail_width, thumbnail_height,
                             photo_version, photo_width, photo_height, image_id) =
                (SELECT thumbnail, thumbnail_format, thumbnail_width, thumbnail_height,
                        photo_version, photo_width, photo_height, image_id FROM Trip WHERE id = ?2)
            WHERE id = ?1
            """, [tripID, sourceTripID])
    }

    /// Deletes the image rows no trip shows (when triggers are set aside, as in an import);
    /// returns their files and how many originals they were.
    static func deleteUnusedImages(on connection: Connection) throws -> (files: [String], originals: Int) {
        let unused = "SELECT id FROM TripImage WHERE id NOT IN (SELECT image_id FROM Trip WHERE image_id IS NOT NULL)"
        let rows = try connection.fetchAll("SELECT file_name, display_file_name FROM TripImage WHERE id IN (\(unused))")
        try connection.execute("DELETE FROM TripImage WHERE id IN (\(unused))")
        let files = try rows.flatMap { row in
            [try row.decode("file_name", as: String.self), try row.decode("display_file_name", as: String?.self)].compactMap { $0 }
        }
        return (files, rows.count)
    }

    /// The files of the trip's current photo.
    static func files(ofTrip tripID: Int64, on connection: Connection) throws -> [String] {
        guard let row = try connection.fetchOne("""
            SELECT file_name, display_file_name FROM TripImage WHERE id = (SELECT image_id FROM Trip WHERE id = ?)
            """, [tripID]) else { return [] }
        return [try row.decode("file_name", as: String.self), try row.decode("display_file_name", as: String?.self)]
            .compactMap { $0 }
    }

    /// Those of `names` no TripImage row references any more.
    static func unreferenced(_ names: [String], on connection: Connection) throws -> [String] {
        try names.filter { name in
            try connection.fetchOne("SELECT 1 FROM TripImage WHERE file_name = ?1 OR display_file_name = ?1", [name]) == nil
        }
    }

    /// Every file a TripImage row references.
    static func referencedFiles(on connection: Connection) throws -> Set<String> {
        let rows = try connection.fetchAll("SELECT file_name, display_file_name FROM TripImage")
        return Set(try rows.flatMap { row in
            [try row.decode("file_name", as: String.self), try row.decode("display_file_name", as: String?.self)].compactMap { $0 }
        })
    }

    /// Runs `change` on the trip and reports which of its photo's files nothing references afterwards.
    static func releasing<Value>(filesOfTrip tripID: Int64, on connection: Connection,
                                 _ change: () throws -> Value) throws -> (Value, released: [String]) {
        let before = try files(ofTrip: tripID, on: connection)
        let value = try change()
        return (value, try unreferenced(before, on: connection))
    }
}
