/// Turns errors thrown below it into error pages (the status and message of an
/// `HTTPResponseError`, else 500 with the error logged), so one failing request never takes the
/// server down. Placed inside the chain (after `CSRFProtection`, `PasswordProtection`), it renders
/// with the request as they enriched it (its CSRF token, its session) and their work on the way
/// out (a new token's cookie) reaches the page too. The server keeps one outside the chain for
/// what escapes it and for requests refused before they were complete.
public struct ErrorPages: Middleware {
    /// Renders a page: the status, the message for the user, the request if it was read.
    public typealias Renderer = @Sendable (HTTPStatus, String, Request?) -> Response

    let render: Renderer

    public init(render: @escaping Renderer) {
        self.render = render
    }

    public func respond(to request: Request, next: Handler) throws -> Response {
        do {
            return try next(request)
        } catch {
            let httpError = HTTPError(wrapping: error)
            if httpError.status.code >= 500 {
                writeStandardErrorLine("error: \(request.method.rawValue) \(request.path): \(httpError)")
            }
            return page(for: httpError, request: request)
        }
    }

    /// The rendered page with the error's headers it does not set itself: the page's own (its
    /// Content-Type, security headers a renderer applied) describe its body, and none go twice.
    func page(for error: HTTPError, request: Request?) -> Response {
        var response = render(error.status, error.message, request)
        response.headers.addAbsent(error.headers)
        return response
    }
}
