import Persistence

/// The SQL behind trips' galleries: adding a stored photo to a trip, copying photos between
/// trips (an import), and finding the files nothing shows any more. The trip row's cover columns
/// follow the gallery by trigger (`Schema.coverFromGallery`). A thumbnail is stored once, on the
/// image's TripImage row, however many photos show that image.
enum PhotoRows {
    /// Where a photo added to a gallery goes: first (the new cover) or after the others.
    enum Place {
        case first, last
    }

    /// A gallery's photo for a picture added: a new one, or the one it already showed.
    struct Added {
        let id: Int64
        let wasThere: Bool
    }

    /// Adds the photo to the trip's gallery. A picture the gallery already shows is not added
    /// twice: put `.first` it moves to the front, `.last` stays.
    @discardableResult
    static func add(_ photo: StoredPhoto, toTrip tripID: Int64, _ place: Place, caption: String = "",
                    dateTaken: String? = nil, on connection: Connection) throws -> Added {
        let imageID = try imageID(for: photo, on: connection)
        if let existing = try connection.fetchScalar(Int64.self, "SELECT id FROM Photo WHERE trip_id = ? AND image_id = ?",
                                                     [tripID, imageID]) {
            if place == .first { try move(photoID: existing, toIndex: 0, on: connection) }
            return Added(id: existing, wasThere: true)
        }
        let prepared = photo.prepared
        try connection.execute("""
            INSERT INTO Photo (trip_id, image_id, position, caption, taken_at, thumbnail_width, thumbnail_height, version,
                               width, height)
            VALUES (?1, ?2, \(position(place)), ?3, ?4, ?5, ?6, ?7, ?8, ?9)
            """, [tripID, imageID, caption, dateTaken ?? prepared.dateTaken, prepared.thumbnail.width,
                  prepared.thumbnail.height, photo.version, prepared.displayWidth, prepared.displayHeight])
        return Added(id: connection.lastInsertedRowID, wasThere: false)
    }

    /// Adds to `tripID` the photo `photoID` (of another trip), as it is, with the caption and
    /// date given; the same picture already there is not added twice.
    static func copy(photoID: Int64, toTrip tripID: Int64, caption: String, dateTaken: String?, on connection: Connection) throws {
        try connection.execute("""
            INSERT OR IGNORE INTO Photo (trip_id, image_id, position, caption, taken_at, thumbnail_width, thumbnail_height,
                                         version, width, height)
            SELECT ?1, image_id, \(position(.last)), ?3, ?4, thumbnail_width, thumbnail_height, version, width, height
            FROM Photo WHERE id = ?2
            """, [tripID, photoID, caption, dateTaken])
    }

    /// Gives `tripID` every photo `sourceTripID` shows, in its order, with their captions.
    static func copyGallery(fromTrip sourceTripID: Int64, toTrip tripID: Int64, on connection: Connection) throws {
        try connection.execute("""
            INSERT OR IGNORE INTO Photo (trip_id, \(Schema.galleryColumns))
            SELECT ?1, \(Schema.galleryColumns) FROM Photo WHERE trip_id = ?2
            ORDER BY position, id
            """, [tripID, sourceTripID])
    }

    /// Puts the photo at `index` (0 is the cover) in its trip's order, numbering them again.
    static func move(photoID: Int64, toIndex index: Int, on connection: Connection) throws {
        guard let tripID = try connection.fetchScalar(Int64.self, "SELECT trip_id FROM Photo WHERE id = ?", [photoID]) else {
            throw WishlistError.notFound(entity: "photo", id: photoID)
        }
        var order = try connection.fetchAll("SELECT id FROM Photo WHERE trip_id = ? ORDER BY position, id", [tripID])
            .map { $0["id"] as Int64 }
        order.removeAll { $0 == photoID }
        order.insert(photoID, at: min(max(index, 0), order.count))
        for (position, id) in order.enumerated() {
            try connection.execute("UPDATE Photo SET position = ? WHERE id = ? AND position IS NOT ?", [position, id, position])
        }
    }

    private static func position(_ place: Place) -> String {
        let edge = place == .first ? "min(position) - 1" : "max(position) + 1"
        return "(SELECT coalesce(\(edge), 0) FROM Photo WHERE trip_id = ?1)"
    }

    private static func imageID(for photo: StoredPhoto, on connection: Connection) throws -> Int64 {
        if let existing = try connection.fetchScalar(Int64.self, "SELECT id FROM TripImage WHERE file_name = ?",
                                                      [photo.original.name]) {
            return existing
        }
        let prepared = photo.prepared
        try connection.execute("""
            INSERT INTO TripImage (file_name, media_type, byte_count, width, height, thumbnail, thumbnail_format)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, [photo.original.name, prepared.format.mediaType, photo.original.byteCount, prepared.width, prepared.height,
                  prepared.thumbnail.bytes, prepared.thumbnail.format.rawValue])
        return connection.lastInsertedRowID
    }

    /// Deletes the image rows no photo shows (when triggers are set aside, as in an import);
    /// returns their files and how many originals they were.
    static func deleteUnusedImages(on connection: Connection) throws -> (files: [String], originals: Int) {
        let unused = "SELECT id FROM TripImage WHERE \(Schema.imageUnused("TripImage.id"))"
        let rows = try connection.fetchAll("SELECT file_name, display_file_name FROM TripImage WHERE id IN (\(unused))")
        try connection.execute("DELETE FROM TripImage WHERE id IN (\(unused))")
        return (try files(of: rows), rows.count)
    }

    /// Those of `names` no TripImage row references any more.
    static func unreferenced(_ names: [String], on connection: Connection) throws -> [String] {
        try names.filter { name in
            try connection.fetchOne("SELECT 1 FROM TripImage WHERE file_name = ?1 OR display_file_name = ?1", [name]) == nil
        }
    }

    /// Every file a TripImage row references.
    static func referencedFiles(on connection: Connection) throws -> Set<String> {
        Set(try files(of: connection.fetchAll("SELECT file_name, display_file_name FROM TripImage")))
    }

    /// The files of TripImage rows (`file_name`, `display_file_name`).
    static func files(of images: [Row]) throws -> [String] {
        try images.flatMap { row in
            [try row.decode("file_name", as: String.self), try row.decode("display_file_name", as: String?.self)].compactMap { $0 }
        }
    }
}
