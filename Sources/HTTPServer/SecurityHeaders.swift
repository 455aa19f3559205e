/// Adds the browser hardening headers to every response, error pages included.
public struct SecurityHeaders: Middleware {
    public static let defaultContentSecurityPolicy = contentSecurityPolicy()

    /// The policy: nothing but this origin's own files, and the `<style>` elements whose text
    /// has one of `styleHashes` (`StaticFiles.contentHash`); never `unsafe-inline`.
    public static func contentSecurityPolicy(styleHashes: [String] = []) -> String {
        "default-src 'self'; img-src 'self' data: blob:; "
            + "style-src 'self'\(styleHashes.map { " 'sha256-\($0)'" }.joined()); script-src 'self'; connect-src 'self'; "
            + "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    }

    private let headers: HTTPHeaders

    public init(contentSecurityPolicy: String = SecurityHeaders.defaultContentSecurityPolicy) {
        headers = [
            "Content-Security-Policy": contentSecurityPolicy,
            "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "same-origin",
            "X-Frame-Options": "DENY",
        ]
    }

    public func respond(to request: Request, next: Handler) throws -> Response {
        do {
            var response = try next(request)
            apply(to: &response.headers)
            return response
        } catch {
            var httpError = HTTPError(wrapping: error)
            apply(to: &httpError.headers)
            throw httpError
        }
    }

    /// `response` with the headers added, for responses made outside the middleware chain
    /// (the server's own refusals of requests it could not read).
    public func applied(to response: Response) -> Response {
        var response = response
        apply(to: &response.headers)
        return response
    }

    private func apply(to target: inout HTTPHeaders) {
        target.addAbsent(headers)
    }
}
