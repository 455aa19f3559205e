import Imaging
import Persistence

/// What screens need to show a trip's photo: its content version (for cache-safe URLs) and the
/// pixel sizes of the thumbnail and of the picture on the trip page (so nothing jumps).
public struct TripPhotoSummary: Hashable, Sendable {
    /// The first characters of the image's content hash: changes whenever the photo does.
    public let version: String
    public let thumbnailWidth: Int
    public let thumbnailHeight: Int
    /// The picture as the trip page shows it, upright: the large rendition's size (the
    /// original's for photos stored before renditions existed; the shape is the same).
    public let width: Int
    public let height: Int

    init(version: String, thumbnailWidth: Int, thumbnailHeight: Int, width: Int, height: Int) {
        self.version = version
        self.thumbnailWidth = thumbnailWidth
        self.thumbnailHeight = thumbnailHeight
        self.width = width
        self.height = height
    }

    /// Reads the Trip columns listed in `Trip.selection`; nil when the trip has no photo.
    init?(row: Row) throws {
        guard let version: String = try row.decode("photo_version") else { return nil }
        self.init(version: version, thumbnailWidth: try row.decode("thumbnail_width"), thumbnailHeight: try row.decode("thumbnail_height"),
                  width: try row.decode("photo_width"), height: try row.decode("photo_height"))
    }

    /// The picture's width once fitted within `maxSide` on its longer side (never enlarged).
    public func width(fittedWithin maxSide: Int) -> Int {
        let longSide = max(width, height)
        return longSide <= maxSide ? width : max(1, Int((Double(width) * Double(maxSide) / Double(longSide)).rounded()))
    }
}

/// A trip's inline thumbnail.
public struct TripThumbnail: Hashable, Sendable {
    public let bytes: [UInt8]
    public let format: ImageFormat
    public let version: String
}

/// The original file of a trip's photo: offered for download, and what its renditions are
/// found (or made) from.
public struct TripPhotoFile: Hashable, Sendable {
    /// The stored-file name in the photo library (`<sha256>.<ext>`).
    public let fileName: String
    public let format: ImageFormat
    public let version: String
}

/// The renditions pages show instead of the original, by the longest side they fit within,
/// largest first: the trip page's picture on a 2× screen, and half that for narrower screens
/// and for the carousel at 2×.
public enum DisplaySize: Int, CaseIterable, Sendable {
    case large = 2048
    case medium = 1024
}
