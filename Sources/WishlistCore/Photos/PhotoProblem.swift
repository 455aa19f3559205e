import Foundation
import Imaging

/// Why an uploaded photo is refused, in words for the person who chose it. The one place
/// these messages are written: the form's field errors and the 413 page both come from here.
public enum PhotoProblem: Equatable, Sendable {
    case unsupportedType
    case empty
    case tooLarge(byteCount: Int, limit: Int)
    /// Refused by the server before the app saw it (the request body was over its limit), so
    /// the photo's size is unknown.
    case uploadTooLarge(limit: Int)
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// Opening it would take more memory than allowed (an interlaced PNG, progressive JPEG…).
    case needsTooMuchMemory(bytes: Int)
    case damaged

    /// The user's problems among imaging errors; nil for failures of the app itself
    /// (storage, libvips), which stay errors rather than form messages.
    init?(_ error: ImagingError) {
        switch error {
        case .unsupportedType: self = .unsupportedType
        case .tooManyPixels(let width, let height, let limit): self = .tooManyPixels(width: width, height: height, limit: limit)
        case .needsTooMuchMemory(let bytes, _): self = .needsTooMuchMemory(bytes: bytes)
        case .corrupt: self = .damaged
        case .unreadable, .processingFailed, .invalidStoredName, .storageFailed, .diskFull: return nil
        }
    }

    public var message: String {
        switch self {
        case .unsupportedType:
            "That file isn't a supported image (JPEG, PNG, WebP, HEIC)."
        case .empty:
            "That file is empty (0 bytes): choose the photo again."
        case .tooLarge(let byteCount, let limit):
            "That photo is \(Self.megabytes(byteCount)) MB; the limit is \(Self.megabytes(limit)) MB."
        case .uploadTooLarge(let limit):
            "That photo is too large. Photos can be up to \(Self.megabytes(limit)) MB. "
                + "Go back and choose a smaller one, or save this one at a lower resolution first."
        case .tooManyPixels(let width, let height, let limit):
            "That image is \(width)×\(height) pixels; the limit is \(Self.megapixels(limit)) megapixels."
        case .needsTooMuchMemory(let bytes):
            "That image would need \(Self.megabytes(bytes)) MB of memory to open; "
                + "save it at a smaller size or as a normal JPEG."
        case .damaged:
            "That image is damaged or incomplete and can't be read. Try exporting it again."
        }
    }

    var validationError: ValidationError {
        ValidationError(field: "photo", message: message)
    }

    /// Megabytes of 1,048,576 bytes, like the `--max-photo-mb` option; one decimal when needed.
    static func megabytes(_ bytes: Int) -> String {
        trimmed(Double(bytes) / (1024 * 1024))
    }

    private static func megapixels(_ pixels: Int) -> String {
        trimmed(Double(pixels) / 1_000_000)
    }

    private static func trimmed(_ value: Double) -> String {
        let tenths = (value * 10).rounded() / 10
        return tenths == tenths.rounded() ? String(Int(tenths)) : String(format: "%.1f", tenths)
    }
}
