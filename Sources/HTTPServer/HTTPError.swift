/// An error that knows how it should be answered: any error a handler or middleware throws may
/// conform (in the layer that knows HTTP), and the server answers it with this status and
/// message. Errors that do not conform become a 500 and are logged.
public protocol HTTPResponseError: Error {
    var status: HTTPStatus { get }
    /// Shown to the user on the error page: say what went wrong and what to do.
    var message: String { get }
    /// Headers for the error response (e.g. `Allow` on a 405).
    var headers: HTTPHeaders { get }
}

extension HTTPResponseError {
    public var headers: HTTPHeaders { HTTPHeaders() }
}

/// Thrown by handlers and middleware to answer with an error page of the given status.
public struct HTTPError: HTTPResponseError, Sendable, CustomStringConvertible {
    public var status: HTTPStatus
    public var message: String
    public var headers: HTTPHeaders
    /// The error this one stands for, for the log (a 500's cause, a conforming error's details).
    public var underlying: (any Error)?

    /// What a 500 tells the user: the details are for the log only.
    public static let internalErrorMessage = "Something went wrong on the server."

    public init(_ status: HTTPStatus, _ message: String? = nil, headers: HTTPHeaders = HTTPHeaders(),
                underlying: (any Error)? = nil) {
        self.status = status
        self.message = message ?? status.reason
        self.headers = headers
        self.underlying = underlying
    }

    /// Any error as an `HTTPError`: an `HTTPResponseError` keeps its status, message and headers
    /// (the system's own errors for a full disk are one: `StorageFull`); other errors become a
    /// 500. Either way the original is kept for the log.
    public init(wrapping error: any Error) {
        if let httpError = error as? HTTPError {
            self = httpError
        } else if let answerable = error as? any HTTPResponseError ?? StorageFull(recognizing: error) {
            self.init(answerable.status, answerable.message, headers: answerable.headers, underlying: error)
        } else {
            self.init(.internalServerError, Self.internalErrorMessage, underlying: error)
        }
    }

    public var description: String {
        "\(status): \(message)" + (underlying.map { " (\($0))" } ?? "")
    }
}

extension HTTPError {
    /// The server's refusal of a body over `Server.Configuration.maxBodySize`.
    public static func bodyTooLarge(limit: Int) -> HTTPError {
        HTTPError(.payloadTooLarge, "The upload is larger than the limit of \(limit / (1024 * 1024)) MB.")
    }
}
