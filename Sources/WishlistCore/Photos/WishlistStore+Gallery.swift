import Imaging
import Persistence

/// One photo of a trip's gallery, as the trip page and the viewer show it.
public struct GalleryPhoto: Hashable, Sendable, Identifiable {
    public typealias ID = Int64
    public let id: ID
    public let tripID: Trip.ID
    public let caption: String
    /// When the camera took it ("2019-06-01T12:00:00", its clock), if the file said.
    public let dateTaken: String?
    /// Sizes and content version, as a trip's cover has them.
    public let summary: TripPhotoSummary

    init(row: Row) throws {
        id = try row.decode("id")
        tripID = try row.decode("trip_id")
        caption = try row.decode("caption")
        dateTaken = try row.decode("taken_at")
        summary = try TripPhotoSummary(version: row.decode("version"), thumbnailWidth: row.decode("thumbnail_width"),
                                       thumbnailHeight: row.decode("thumbnail_height"), width: row.decode("width"),
                                       height: row.decode("height"))
    }

    static let selection = "id, trip_id, caption, taken_at, version, thumbnail_width, thumbnail_height, width, height"
}

/// What one file of an upload of many became.
public enum PhotoUploadOutcome: Sendable, Equatable {
    case stored(GalleryPhoto.ID)
    /// The same picture was in the gallery already, as this photo: nothing was added.
    case alreadyThere(GalleryPhoto.ID)
    /// The person's problem with the file (type, size, damage), in words they can act on.
    case refused(String)
}

extension WishlistQuery where Value == [GalleryPhoto] {
    /// The trip's photos in their order, the cover first.
    public static func gallery(tripID: Trip.ID) -> Self {
        Self { connection in
            try connection.fetchAll("SELECT \(GalleryPhoto.selection) FROM Photo WHERE trip_id = ? ORDER BY position, id", [tripID])
                .map(GalleryPhoto.init)
        }
    }
}

extension WishlistQuery where Value == GalleryPhoto? {
    public static func galleryPhoto(id: GalleryPhoto.ID) -> Self {
        Self { connection in
            try connection.fetchOne("SELECT \(GalleryPhoto.selection) FROM Photo WHERE id = ?", [id]).map(GalleryPhoto.init)
        }
    }
}


extension WishlistQuery where Value == TripPhotoFile? {
    /// The original of the gallery photo.
    public static func photoFile(photoID: GalleryPhoto.ID) -> Self {
        Self { connection in
            guard let row = try connection.fetchOne("""
                SELECT file_name, media_type, version FROM Photo JOIN TripImage ON TripImage.id = image_id WHERE Photo.id = ?
                """, [photoID]),
                let format = ImageFormat(mediaType: try row.decode("media_type")) else { return nil }
            return TripPhotoFile(fileName: try row.decode("file_name"), format: format, version: try row.decode("version"))
        }
    }
}

/// A trip's gallery: photos added one file at a time (each through the same checks as any photo,
/// and committed on its own, so one refused file loses none of the others), captioned, moved,
/// made the cover (the first), and deleted with an undo.
extension WishlistStore {
    /// Adds the files at `paths` (uploads' temporary files, copied) to the end of the trip's
    /// gallery, in order; a picture the gallery shows already is not added twice (`alreadyThere`). Each file's
    /// outcome is reported; a missing trip throws before any file is read.
    public func addPhotos(tripID: Trip.ID, at paths: [String], author: String = appAuthor) throws -> [PhotoUploadOutcome] {
        try requireTrip(id: tripID)
        return try paths.map { path in
            do {
                let added = try addPhoto(tripID: tripID, at: path, .last, author: author)
                return added.wasThere ? .alreadyThere(added.id) : .stored(added.id)
            } catch let problem as ValidationError {
                return .refused(problem.message)
            }
        }
    }

    /// Makes the file at `path` the trip's cover, first in its gallery (the old cover stays,
    /// second); nothing else of the trip changes. A file the person must fix throws `ValidationError`.
    @discardableResult
    public func addCover(tripID: Trip.ID, at path: String, author: String = appAuthor) throws -> GalleryPhoto.ID {
        try requireTrip(id: tripID)
        return try addPhoto(tripID: tripID, at: path, .first, author: author).id
    }

    private func addPhoto(tripID: Trip.ID, at path: String, _ place: PhotoRows.Place, author: String) throws -> PhotoRows.Added {
        let prepared = try photos.prepare(fileAt: path)
        return try photos.committing(prepared) { stored in
            try database.write(author: author) { connection in
                try Self.requireTrip(id: tripID, on: connection)
                return (try PhotoRows.add(stored!, toTrip: tripID, place, on: connection), released: [])
            }
        }
    }

    public func setCaption(photoID: GalleryPhoto.ID, _ caption: String, author: String = appAuthor) throws {
        let caption = try TextRules.optional(caption, field: "caption", noun: "caption") ?? ""
        try database.write(author: author) { connection in
            try connection.execute("UPDATE Photo SET caption = ? WHERE id = ?", [caption, photoID])
            if connection.changes == 0 { throw WishlistError.notFound(entity: "photo", id: photoID) }
        }
    }

    /// Puts the photo at `index` in its trip's order (0 makes it the cover).
    public func movePhoto(id: GalleryPhoto.ID, toIndex index: Int, author: String = appAuthor) throws {
        try database.write(author: author) { connection in
            try PhotoRows.move(photoID: id, toIndex: index, on: connection)
        }
    }

    /// Deletes the photo from its trip's gallery, keeping it to be put back by `undoDeletion`
    /// (the next one becomes the cover if it was the first).
    @discardableResult
    public func deletePhoto(id: GalleryPhoto.ID, author: String = appAuthor) throws -> Deletion {
        try deleteUndoably(.photo, id: id, author: author)
    }

    private func requireTrip(id: Trip.ID) throws {
        try database.read { connection in try Self.requireTrip(id: id, on: connection) }
    }
}
