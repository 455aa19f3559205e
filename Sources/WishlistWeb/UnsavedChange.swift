import HTTPServer
import Persistence
import WishlistCore

/// A change a form could not save that the person can fix or simply retry: the form is shown
/// again with what was typed and this message, beside the field at fault or above the form.
struct UnsavedChange {
    let status: HTTPStatus
    /// The field at fault; nil when none is (the wishlist was busy).
    let field: String?
    let message: String

    /// nil for an error that goes to the error page instead.
    init?(_ error: any Error) {
        switch error {
        case let invalid as ValidationError:
            (status, field, message) = (invalid.status, invalid.field, invalid.message)
        case let database as DatabaseError where database.isBusy:
            (status, field, message) = (database.status, nil, database.message)
        default:
            return nil
        }
    }

    /// The form's page again, with the headers of this error (a busy answer's Retry-After).
    func answer(_ page: Response) -> Response {
        guard field == nil else { return page }
        var page = page
        for (name, value) in Busy.headers { page.headers[name] = value }
        return page
    }
}
