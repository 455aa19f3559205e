import HTTPServer
import Persistence
import WishlistCore

/// A change a form could not save that the person can fix, retry or save later: the form is
/// shown again with what was typed and this message, beside the field at fault or above the form.
struct UnsavedChange {
    let status: HTTPStatus
    /// The field at fault; nil when none is (the wishlist was busy, its disk full, its database gone).
    let field: String?
    let message: String
    /// Problems of other fields found with this one (`ValidationError.others`).
    let others: [ValidationError]
    /// The error's own headers (a busy answer's Retry-After).
    let headers: HTTPHeaders

    /// nil for an error that goes to the error page instead.
    init?(_ error: any Error) {
        let answerable: any HTTPResponseError
        others = (error as? ValidationError)?.others ?? []
        switch error {
        case let invalid as ValidationError:
            (answerable, field) = (invalid, invalid.field)
        case let changed as WishlistError:
            // A trip changed since its form was drawn: the form again, saying so (a rename
            // refused the same way goes to the error page, which a script reads).
            guard case .changedMeanwhile = changed else { return nil }
            (answerable, field) = (changed, nil)
        case let database as DatabaseError where database.isBusy:
            (answerable, field) = (database, nil)
        case let problem as DatabaseFileProblem:
            (answerable, field) = (problem, nil)
        case let full as any HTTPResponseError where full.status == .insufficientStorage:
            (answerable, field) = (full, nil)
        default:
            return nil
        }
        (status, message, headers) = (answerable.status, answerable.message, answerable.headers)
    }

    /// The form's page again, with the error's headers.
    func answer(_ page: Response) -> Response {
        var page = page
        for (name, value) in headers { page.headers[name] = value }
        return page
    }
}
