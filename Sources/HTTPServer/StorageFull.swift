import Foundation
import Glibc

/// A full disk (`ENOSPC`) or a spent quota (`EDQUOT`), however the error reporting it came:
/// errno as a `POSIXError`, or an `NSError` from Foundation (`fileWriteOutOfSpace`, or a POSIX
/// error under `NSUnderlyingErrorKey`). Answered as 507, which tells the person that freeing
/// space fixes it, instead of a 500 that says nothing.
public struct StorageFull: HTTPResponseError {
    public static let message = "The disk is full, so this was not saved. Free some space on the disk and try again; everything saved before is safe."

    public var status: HTTPStatus { .insufficientStorage }
    public var message: String { Self.message }

    /// The storage error `error` reports, or nil for any other error.
    public init?(recognizing error: any Error) {
        guard Self.isFull(error) else { return nil }
    }

    private static func isFull(_ error: any Error) -> Bool {
        if let posix = error as? POSIXError { return posix.code == .ENOSPC || posix.code == .EDQUOT }
        let nsError = error as NSError
        switch nsError.domain {
        case NSPOSIXErrorDomain where nsError.code == Int(ENOSPC) || nsError.code == Int(EDQUOT): return true
        case NSCocoaErrorDomain where nsError.code == CocoaError.fileWriteOutOfSpace.rawValue: return true
        default: break
        }
        return (nsError.userInfo[NSUnderlyingErrorKey] as? any Error).map(isFull) ?? false
    }
}
