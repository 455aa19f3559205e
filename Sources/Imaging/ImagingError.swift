import Foundation

/// Why an image was refused or could not be processed. `description` says what happened, for
/// logs and error pages; the words for the person who uploaded the file are the app's (in
/// WishlistCore, `PhotoProblem`).
public enum ImagingError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// The bytes are not one of the supported image formats; carries the detected MIME type.
    case unsupportedType(String)
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// Decoding would hold more memory than `ImageLimits.maxDecodeBytes` (estimated bytes).
    case needsTooMuchMemory(bytes: Int, limit: Int)
    /// The file claims to be an image but cannot be decoded completely (truncated, damaged).
    case corrupt(String)
    case unreadable(path: String, reason: String)
    /// libvips failed while resizing or encoding an image it had accepted.
    case processingFailed(String)
    /// A stored-file name that is not `<64 hex digits>.<extension>`.
    case invalidStoredName(String)
    case storageFailed(String)
    /// Storing failed because the disk (or the user's quota) is full: freeing space fixes it.
    case diskFull(String)

    public var description: String {
        switch self {
        case .unsupportedType(let mediaType):
            return "The file is \(mediaType), not a supported image."
        case .tooManyPixels(let width, let height, let limit):
            return "The image is \(width)×\(height) pixels, over the limit of \(limit) pixels."
        case .needsTooMuchMemory(let bytes, let limit):
            return "Decoding the image would need \(bytes) bytes of memory, over the limit of \(limit) bytes."
        case .corrupt(let detail):
            return "The image is damaged or incomplete and cannot be read (\(detail))."
        case .unreadable(let path, let reason):
            return "The file \(path) cannot be read: \(reason)."
        case .processingFailed(let detail):
            return "The image could not be processed (\(detail))."
        case .invalidStoredName(let name):
            return "“\(name)” is not the name of a stored image."
        case .storageFailed(let detail):
            return "The image could not be stored: \(detail)."
        case .diskFull(let detail):
            return "The image could not be stored because the disk is full (\(detail))."
        }
    }

    public var errorDescription: String? { description }
}
