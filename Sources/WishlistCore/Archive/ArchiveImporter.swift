import Foundation
import Persistence

/// The rows of an import, inside its transaction with the triggers set aside: the new trips are
/// inserted beside the current ones, with the archive's ids where it gives them (the current
/// trips first move past them, their photos with them), take their galleries (from the archive,
/// or carried over from the current trips), and then the current trips and the images nothing
/// shows go.
struct ArchiveImporter {
    let connection: Connection
    /// Dates the trips that the document leaves undated.
    let importTime: Date

    /// What identifies a trip in a document that has no ids: its name and collection, and which
    /// one it is among trips sharing both, in the order they were added.
    private struct TripKey: Hashable {
        let name: String
        let collection: String
        let occurrence: Int
    }

    /// Hands out keys in order, counting trips that share a name and collection.
    private struct KeyCounter {
        private var seen: [TripKey: Int] = [:]

        mutating func key(name: String, collection: String) -> TripKey {
            let first = TripKey(name: name, collection: collection, occurrence: 0)
            let occurrence = seen[first, default: 0]
            seen[first] = occurrence + 1
            return TripKey(name: name, collection: collection, occurrence: occurrence)
        }
    }

    /// The current trips: by key, and the first photo showing each file.
    private struct CurrentTrips {
        var byKey: [TripKey: (id: Int64, hasPhoto: Bool)] = [:]
        var photoByFile: [String: Int64] = [:]
        /// The current trips' ids are within these (none when first > last).
        var firstID: Int64 = 1
        var lastID: Int64 = 0

        /// Moves the current trips' ids up by `offset`, and what is known of them with them.
        mutating func shift(by offset: Int64, on connection: Connection) throws {
            try connection.execute("UPDATE Trip SET id = id + ?", [offset])
            byKey = byKey.mapValues { (id: $0.id + offset, hasPhoto: $0.hasPhoto) }
            (firstID, lastID) = (firstID + offset, lastID + offset)
        }
    }

    func replaceTrips(with trips: [ArchiveTrip], photos: [String: StoredPhoto], total: Int,
                      progress: (ArchiveProgress) -> Void) throws -> (summary: ImportSummary, releasedFiles: [String]) {
        var current = try currentTrips()
        try connection.execute("DELETE FROM Activity; UPDATE Goal SET date_achieved = NULL")
        // Past every id the archive keeps and every current one, so no id is taken twice.
        if let highestKept = trips.compactMap(\.id).max() {
            try current.shift(by: max(highestKept, current.lastID), on: connection)
        }
        var summary = ImportSummary(trips: trips.count, activities: 0)
        var keys = KeyCounter()
        var done = 0
        var nextReport = 0
        for (index, trip) in trips.enumerated() {
            if done >= nextReport {
                progress(ArchiveProgress(itemsDone: done, itemsTotal: total))
                nextReport = done + 10_000
            }
            let tripID = try insert(trip, importTime: importTime)
            let key = keys.key(name: trip.name, collection: trip.collection.rawValue)
            switch trip.photos {
            case .gallery(let gallery):
                for (offset, photo) in gallery.enumerated() {
                    if let stored = photos[photo.file] {
                        try PhotoRows.add(stored, toTrip: tripID, .last, caption: photo.caption ?? "", dateTaken: photo.dateTaken,
                                          on: connection)
                        summary.photosFromArchive += 1
                    } else if let source = current.photoByFile[photo.file] {
                        try PhotoRows.copy(photoID: source, toTrip: tripID, caption: photo.caption ?? "", dateTaken: photo.dateTaken,
                                           on: connection)
                        summary.photosKept += 1
                    } else {
                        throw ArchiveError(location: "trips[\(index)].photos[\(offset)].file",
                                           message: "is not in the photo library; import the zip archive that carries it")
                    }
                }
            case .keepMatching:
                guard let match = current.byKey[key], match.hasPhoto else { break }
                try PhotoRows.copyGallery(fromTrip: match.id, toTrip: tripID, on: connection)
                summary.photosKept += 1
            }
            done += 1 + trip.activities.count
        }
        try connection.execute("DELETE FROM Trip WHERE id BETWEEN ? AND ?", [current.firstID, current.lastID])
        try DeletedRows.forgetAll(on: connection)  // an undo would bring back trips this import replaced
        let released = try PhotoRows.deleteUnusedImages(on: connection)
        summary.photosRemoved = released.originals
        return (summary, released.files)
    }

    private func currentTrips() throws -> CurrentTrips {
        var current = CurrentTrips()
        var keys = KeyCounter()
        for row in try connection.fetchAll("SELECT id, name, collection, image_id FROM Trip ORDER BY id") {
            let id: Int64 = row["id"]
            let cover: Int64? = row["image_id"]
            current.byKey[keys.key(name: row["name"], collection: row["collection"])] = (id, cover != nil)
            current.lastID = id
        }
        for row in try connection.fetchAll("""
            SELECT Photo.id, file_name FROM Photo JOIN TripImage ON TripImage.id = image_id ORDER BY Photo.id
            """) where current.photoByFile[row["file_name"]] == nil {
            current.photoByFile[row["file_name"]] = row["id"]
        }
        return current
    }

    private func insert(_ trip: ArchiveTrip, importTime: Date) throws -> Int64 {
        let creationDate = trip.creationDate ?? importTime
        let tripID = try Rows.insertTrip(trip.fields, creationDate: creationDate, id: trip.id, on: connection)
        for activity in trip.activities {
            let dateCreated = activity.dateCreated ?? creationDate
            _ = try Rows.insertActivity(tripID: tripID, name: activity.name, isComplete: activity.isComplete,
                                        dateCreated: dateCreated, dateEdited: activity.dateEdited ?? dateCreated,
                                        on: connection)
        }
        return tripID
    }
}
