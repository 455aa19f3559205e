/// Turns thrown errors into error pages (the status of an `HTTPError`, else 500 with the
/// error logged), so one failing request never takes the server down.
struct ErrorPages: Middleware {
    let render: @Sendable (HTTPStatus, String, Request?) -> Response

    func respond(to request: Request, next: Handler) throws -> Response {
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

    func page(for error: HTTPError, request: Request?) -> Response {
        var response = render(error.status, error.message, request)
        for (name, value) in error.headers { response.headers.add(name, value) }
        return response
    }
}
