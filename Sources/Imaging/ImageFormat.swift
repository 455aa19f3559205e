/// The image formats this module accepts. AVIF is refused rather than filed under HEIF: it
/// would be stored with the wrong extension and MIME type, and phones do not produce it.
public enum ImageFormat: String, CaseIterable, Sendable, Codable {
    case jpeg, png, webp, heif, gif

    /// Maps a MIME type detected from the bytes (see `MediaType`); nil for anything else.
    public init?(mediaType: String) {
        switch mediaType.lowercased() {
        case "image/jpeg": self = .jpeg
        case "image/png": self = .png
        case "image/webp": self = .webp
        case "image/heic", "image/heif", "image/heic-sequence", "image/heif-sequence": self = .heif
        case "image/gif": self = .gif
        default: return nil
        }
    }

    public var mediaType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        case .heif: "image/heic"
        case .gif: "image/gif"
        }
    }

    /// The extension used for stored files, without the dot.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .webp: "webp"
        case .heif: "heic"
        case .gif: "gif"
        }
    }

    /// Whether common browsers show this format in an `<img>`; HEIC needs a JPEG rendition.
    public var isBrowserDisplayable: Bool { self != .heif }

    public init?(fileExtension: String) {
        guard let format = Self.allCases.first(where: { $0.fileExtension == fileExtension }) else { return nil }
        self = format
    }
}
