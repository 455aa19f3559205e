import Persistence

/// Reads trips with their activities in id order, a batch at a time, so that memory stays
/// flat however large the wishlist is. Runs inside one read transaction: one consistent moment.
enum ArchiveExporter {
    static let batchSize = 500

    static func forEachBatch(on connection: Connection, _ body: ([ArchiveTrip]) throws -> Void) throws {
        var lastID: Int64 = 0
        while true {
            let trips = try connection.fetchAll("""
                SELECT id, name, subtitle, collection, creation_date, start_date, end_date, \(TripDestination.selection)
                FROM Trip WHERE id > ? ORDER BY id LIMIT ?
                """, [lastID, batchSize])
            guard let first = trips.first, let last = trips.last else { return }
            let firstID: Int64 = first["id"]
            lastID = last["id"]
            var activities: [Int64: [ArchiveActivity]] = [:]
            for row in try connection.fetchAll("""
                SELECT trip_id, name, is_complete, date_created, date_edited FROM Activity
                WHERE trip_id BETWEEN ? AND ? ORDER BY trip_id, id
                """, [firstID, lastID]) {
                activities[row["trip_id"], default: []].append(ArchiveActivity(
                    name: row["name"], isComplete: row["is_complete"], dateCreated: row["date_created"], dateEdited: row["date_edited"]))
            }
            var galleries: [Int64: [ArchiveGalleryPhoto]] = [:]
            for row in try connection.fetchAll("""
                SELECT trip_id, file_name, caption, taken_at FROM Photo JOIN TripImage ON TripImage.id = image_id
                WHERE trip_id BETWEEN ? AND ? ORDER BY trip_id, position, Photo.id
                """, [firstID, lastID]) {
                let caption: String = row["caption"]
                galleries[row["trip_id"], default: []].append(ArchiveGalleryPhoto(
                    file: row["file_name"], caption: caption.isEmpty ? nil : caption, dateTaken: row["taken_at"]))
            }
            try body(trips.map { row throws in
                ArchiveTrip(id: row["id"], name: row["name"], subtitle: row["subtitle"], collection: row["collection"],
                            creationDate: row["creation_date"], photos: .gallery(galleries[row["id"]] ?? []),
                            activities: activities[row["id"]] ?? [], destination: try TripDestination(row: row),
                            startDate: row["start_date"], endDate: row["end_date"])
            })
        }
    }
}
