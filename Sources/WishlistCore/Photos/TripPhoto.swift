import Imaging
import Persistence

/// What screens need to show a trip's photo: its content version (for cache-safe URLs) and the
/// pixel sizes of the thumbnail and of the picture on the trip page (so nothing jumps).
public struct TripPhotoSummary: Hashable, Sendable {
    /// The first characters of the image's content hash: changes whenever the photo does.
    public let version: String
    public let thumbnailWidth: Int
    public let thumbnailHeight: Int
    /// The picture as the trip page shows it: upright, the display rendition's size for HEIC.
    public let width: Int
    public let height: Int

    /// Reads the Trip columns listed in `Trip.selection`; nil when the trip has no photo.
    init?(row: Row) throws {
        guard let version: String = try row.decode("photo_version") else { return nil }
        self.version = version
        thumbnailWidth = try row.decode("thumbnail_width")
        thumbnailHeight = try row.decode("thumbnail_height")
        width = try row.decode("photo_width")
        height = try row.decode("photo_height")
    }
}

/// A trip's inline thumbnail.
public struct TripThumbnail: Hashable, Sendable {
    public let bytes: [UInt8]
    public let format: ImageFormat
    public let version: String
}

/// The file a browser is given for a trip's full photo: the original, or for formats browsers
/// cannot show (HEIC) its JPEG display rendition.
public struct TripPhotoFile: Hashable, Sendable {
    /// The stored-file name in the photo library (`<sha256>.<ext>`).
    public let fileName: String
    public let format: ImageFormat
    public let version: String
}
