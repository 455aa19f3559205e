import Imaging
import Persistence

extension WishlistQuery where Value == TripThumbnail? {
    /// The trip's cover thumbnail; nil when the trip or its photo does not exist.
    public static func thumbnail(tripID: Int64) -> Self {
        thumbnail(ofImageShownBy: "Trip", version: "photo_version", id: tripID)
    }

    /// The gallery photo's thumbnail.
    public static func thumbnail(photoID: GalleryPhoto.ID) -> Self {
        thumbnail(ofImageShownBy: "Photo", version: "version", id: photoID)
    }

    /// The thumbnail of the image that row `id` of `table` shows, stored once on its TripImage row.
    private static func thumbnail(ofImageShownBy table: String, version: String, id: Int64) -> Self {
        Self { connection in
            guard let row = try connection.fetchOne("""
                SELECT TripImage.thumbnail, TripImage.thumbnail_format, \(table).\(version) AS version
                FROM \(table) JOIN TripImage ON TripImage.id = \(table).image_id
                WHERE \(table).id = ? AND TripImage.thumbnail IS NOT NULL
                """, [id]),
                let format = ImageFormat(rawValue: try row.decode("thumbnail_format")) else { return nil }
            return TripThumbnail(bytes: try row.decode("thumbnail"), format: format, version: try row.decode("version"))
        }
    }
}

extension WishlistQuery where Value == TripPhotoFile? {
    /// The original of the trip's photo; nil when the trip or its photo does not exist.
    public static func photoFile(tripID: Int64) -> Self {
        Self { connection in
            guard let row = try connection.fetchOne("""
                SELECT TripImage.file_name, TripImage.media_type, Trip.photo_version
                FROM Trip JOIN TripImage ON TripImage.id = Trip.image_id WHERE Trip.id = ?
                """, [tripID]),
                let format = ImageFormat(mediaType: try row.decode("media_type")) else { return nil }
            return TripPhotoFile(fileName: try row.decode("file_name"), format: format, version: try row.decode("photo_version"))
        }
    }
}

extension WishlistStore {
    public func thumbnail(tripID: Trip.ID) throws -> TripThumbnail? {
        try fetch(.thumbnail(tripID: tripID))
    }

    public func photoFile(tripID: Trip.ID) throws -> TripPhotoFile? {
        try fetch(.photoFile(tripID: tripID))
    }

    /// Deletes photo files no row references (left by a crash, or by an import that replaced the
    /// trips) and lists referenced files that are missing. Meant for startup, off the serving path.
    public func sweepPhotos() throws -> PhotoSweep {
        try forgetExpiredDeletions()  // a deleted trip's photo is kept only while it can be undone
        return try photos.sweep(referencedNames: referencedPhotoFiles)
    }

    /// Every photo file a row refers to (originals, and the JPEGs of HEIC photos stored before
    /// `DisplaySize` renditions existed), e.g. for a backup. Renditions are not among them: they
    /// are made again from their original when missing.
    public func referencedPhotoFiles() throws -> Set<String> {
        try database.read(PhotoRows.referencedFiles)
    }
}
