import HTTPServer
import Imaging
import Persistence

/// A write or photo upload that failed because the disk is full becomes a 507 page that says so
/// (instead of a generic 500): nothing was saved, reading still works, and freeing space fixes it.
struct DiskFullErrors: Middleware {
    static let message = "The disk is full, so this change was not saved. Free some space on the disk and try again; everything saved before is safe."

    func respond(to request: Request, next: Handler) throws -> Response {
        do {
            return try next(request)
        } catch let error as DatabaseError where error.isDiskFull {
            throw HTTPError(.insufficientStorage, Self.message, underlying: error)
        } catch let error as ImagingError {
            guard case .diskFull = error else { throw error }
            throw HTTPError(.insufficientStorage, Self.message, underlying: error)
        }
    }
}
