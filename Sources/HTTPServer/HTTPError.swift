/// Thrown by handlers and middleware to answer with an error page of the given status.
public struct HTTPError: Error, Sendable, CustomStringConvertible {
    public var status: HTTPStatus
    /// Shown to the user on the error page: say what went wrong and what to do.
    public var message: String
    /// Headers for the error response (e.g. `Allow` on a 405).
    public var headers: HTTPHeaders
    /// The error behind a 500, for the log.
    public var underlying: (any Error)?

    public init(_ status: HTTPStatus, _ message: String? = nil, headers: HTTPHeaders = HTTPHeaders(),
                underlying: (any Error)? = nil) {
        self.status = status
        self.message = message ?? status.reason
        self.headers = headers
        self.underlying = underlying
    }

    /// Any error as an `HTTPError`: other errors become a 500 that keeps the original for the log.
    public init(wrapping error: any Error) {
        if let httpError = error as? HTTPError {
            self = httpError
        } else {
            self.init(.internalServerError, "Something went wrong on the server.", underlying: error)
        }
    }

    public var description: String {
        "\(status): \(message)" + (underlying.map { " (\($0))" } ?? "")
    }
}
