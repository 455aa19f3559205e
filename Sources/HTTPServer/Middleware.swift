/// Answers a request. Throw an `HTTPResponseError` (such as `HTTPError`) for an error page of its
/// status; any other error becomes a 500 page and is logged.
public typealias Handler = @Sendable (Request) throws -> Response

/// Wraps a handler: inspects or changes the request, the response, or answers itself.
public protocol Middleware: Sendable {
    func respond(to request: Request, next: Handler) throws -> Response
}

extension Middleware {
    /// This middleware in front of `handler`.
    public func wrapping(_ handler: @escaping Handler) -> Handler {
        { request in try respond(to: request, next: handler) }
    }
}

/// `middlewares` in front of `handler`; the first one sees the request first.
public func chain(_ middlewares: [any Middleware], to handler: @escaping Handler) -> Handler {
    middlewares.reversed().reduce(handler) { next, middleware in middleware.wrapping(next) }
}
