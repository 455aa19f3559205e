import HTTPServer
import Imaging
import Persistence
import WishlistCore

// How the lower layers' errors are answered. They stay free of HTTP; this layer gives each its
// status and a message for the person who sees it.

extension WishlistError: HTTPResponseError {
    public var status: HTTPStatus {
        switch self {
        case .notFound, .noSuchSecret: .notFound
        case .renamedMeanwhile, .changedMeanwhile: .preconditionFailed
        }
    }

    public var headers: HTTPHeaders {
        guard case .renamedMeanwhile(_, let now) = self else { return HTTPHeaders() }
        return CurrentVersions.headers([("was", now)])
    }

    public var message: String {
        switch self {
        case .notFound(let entity, let id): "There is no \(entity) number \(id). It may have been deleted."
        case .noSuchSecret: description
        case .renamedMeanwhile(let entity, let now): "While this change waited, the \(entity) was renamed to “\(now)” elsewhere."
        case .changedMeanwhile(let entity):
            "The \(entity) was changed elsewhere since this form was opened. The form shows what you typed: save again to keep it, or cancel to see the other change."
        }
    }
}

/// A form's own screen shows its validation errors beside the field; one that reaches the error
/// page (an API call, a form without a screen) still says what to fix.
extension ValidationError: HTTPResponseError {
    public var status: HTTPStatus { .unprocessableContent }
}

/// A full disk, from SQLite or from storing a photo, is a 507 that says so (instead of a generic
/// 500): nothing was saved, reading still works, and freeing space fixes it. The system's own
/// errors for it are recognised by `StorageFull`, whose words these are.
enum DiskFull {
    static func status(_ isDiskFull: Bool) -> HTTPStatus { isDiskFull ? .insufficientStorage : .internalServerError }
    static func message(_ isDiskFull: Bool) -> String { isDiskFull ? StorageFull.message : HTTPError.internalErrorMessage }
}

/// Another process holds the write lock (`wishlist import` runs one long transaction): a 503
/// that asks to try again, instead of a 500 after the busy timeout. Forms that can meet it show
/// the message above what was typed (`UnsavedChange`).
enum Busy {
    static let message = "The wishlist is busy importing; try again in a moment. Nothing was saved."
    static let retryAfterSeconds = 2
    static var headers: HTTPHeaders { ["Retry-After": String(retryAfterSeconds)] }
}

extension DatabaseError: HTTPResponseError {
    public var status: HTTPStatus { isBusy ? .serviceUnavailable : DiskFull.status(isDiskFull) }
    public var message: String { isBusy ? Busy.message : DiskFull.message(isDiskFull) }
    public var headers: HTTPHeaders { isBusy ? Busy.headers : HTTPHeaders() }
}

/// The database file went away under the server (`Database.fileProblem`): every change is
/// refused, with what happened and the restore steps, rather than "saved" into a file no one
/// will open again.
extension DatabaseFileProblem: HTTPResponseError {
    public var status: HTTPStatus { .serviceUnavailable }
    public var message: String {
        "This change was not saved: \(description). Wishlist refuses changes until it is started again on a restored database. "
            + Backup.restoreSteps(forDatabaseAt: path) + " Then start wishlist again."
    }
}

extension ImagingError: HTTPResponseError {
    private var isDiskFull: Bool {
        if case .diskFull = self { true } else { false }
    }

    public var status: HTTPStatus { DiskFull.status(isDiskFull) }
    public var message: String { DiskFull.message(isDiskFull) }
}
