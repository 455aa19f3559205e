/// Guards state-changing requests (POST, PUT, PATCH, DELETE) against cross-site forgery:
/// the browser must not flag the request as cross-site (`Sec-Fetch-Site`), its `Origin` must be
/// this host, and it must carry the client's token (`_csrf` field or `X-CSRF-Token` header)
/// matching the `csrf_token` cookie. Requests with an API token (`BearerAuthentication`) have none
/// of this: no browser sends one on its own. Sets the cookie when missing and exposes the token as
/// `request.csrfToken` for pages to embed in forms.
///
/// The cookie is `SameSite=Lax`, not Strict: a link from another site is a navigation without
/// Strict cookies, so the server saw no token, set a new one and the owner's open tabs then
/// posted a stale token (403, typing lost). Lax is sent on such top-level GETs only; it is no
/// session and grants nothing, and a cross-site post still lacks it and fails the checks above.
public struct CSRFProtection: Middleware {
    public static let cookieName = "csrf_token"
    public static let fieldName = "_csrf"
    public static let headerName = "X-CSRF-Token"

    public init() {}

    public func respond(to request: Request, next: Handler) throws -> Response {
        // A script's API token (`BearerAuthentication`) is no cookie a browser sends by itself.
        if request.bearerTokenName != nil { return try next(request) }
        let existing = request.cookies[Self.cookieName].flatMap { SecretToken.isWellFormed($0) ? $0 : nil }
        if request.method.isUnsafe {
            try check(request, cookieToken: existing)
        }
        var request = request
        let token = try existing ?? SecretToken.make()
        request.csrfToken = token
        var response = try next(request)
        if existing == nil {
            response.setCookie(Cookie(name: Self.cookieName, value: token, httpOnly: true, sameSite: .lax,
                                      secure: request.isSecure))
        }
        return response
    }

    private func check(_ request: Request, cookieToken: String?) throws {
        if let site = request.headers["Sec-Fetch-Site"]?.lowercased(), site == "cross-site" || site == "same-site" {
            throw Self.refusal
        }
        if let origin = request.headers["Origin"] {
            guard let host = request.headers["Host"], Self.authority(ofOrigin: origin) == host.lowercased() else {
                throw Self.refusal
            }
        }
        guard let cookieToken,
              let sent = request.headers[Self.headerName] ?? request.form[Self.fieldName],
              SecretToken.constantTimeEquals(sent, cookieToken) else {
            throw Self.refusal
        }
    }

    private static let refusal = HTTPError(
        .forbidden, "This form has expired or came from another site. Reload the page and try again.")

    /// `http://host:port` → `host:port`; nil for `null` and anything without a scheme.
    private static func authority(ofOrigin origin: String) -> String? {
        guard let separator = origin.range(of: "://") else { return nil }
        return origin[separator.upperBound...].lowercased()
    }
}
