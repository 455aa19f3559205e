/// Guards state-changing requests (POST, PUT, PATCH, DELETE) against cross-site forgery:
/// the browser must not flag the request as cross-site (`Sec-Fetch-Site`), its `Origin` must be
/// this host, and it must carry the client's token (`_csrf` field or `X-CSRF-Token` header)
/// matching the `csrf_token` cookie. Requests with an API token (`BearerAuthentication`) have none
/// of this: no browser sends one on its own. Sets the cookie when missing and exposes the token as
/// `request.csrfToken` for pages to embed in forms.
///
/// Give it to `Server.Configuration.headChecks` as well as the chain: on the head the server
/// refuses what the head decides (the site, the origin, a missing cookie, a wrong header token)
/// before reading any body, and a multipart body must carry the token field before its first
/// file part, so a forged upload stores nothing. The middleware checks the whole request again.
///
/// The cookie is `SameSite=Lax`, not Strict: a link from another site is a navigation without
/// Strict cookies, so the server saw no token, set a new one and the owner's open tabs then
/// posted a stale token (403, typing lost). Lax is sent on such top-level GETs only; it is no
/// session and grants nothing, and a cross-site post still lacks it and fails the checks above.
public struct CSRFProtection: HeadCheck {
    public static let cookieName = "csrf_token"
    public static let fieldName = "_csrf"
    public static let headerName = "X-CSRF-Token"

    public init() {}

    public func respond(to request: Request, next: Handler) throws -> Response {
        // A script's API token (`BearerAuthentication`) is no cookie a browser sends by itself.
        if request.bearerTokenName != nil { return try next(request) }
        let existing = Self.cookieToken(of: request)
        if request.method.isUnsafe {
            try check(head: request)
            guard let existing, let sent = request.headers[Self.headerName] ?? request.form[Self.fieldName],
                  SecretToken.constantTimeEquals(sent, existing) else {
                throw Self.refusal
            }
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

    public func check(head request: Request) throws(HTTPError) {
        // A page cannot set `Authorization` on a cross-site request (that needs a CORS grant this
        // server never gives); `BearerAuthentication`, checked before, has verified the token.
        guard request.method.isUnsafe, !BearerAuthentication.carriesToken(request) else { return }
        if let site = request.headers["Sec-Fetch-Site"]?.lowercased(), site == "cross-site" || site == "same-site" {
            throw Self.refusal
        }
        if let origin = request.headers["Origin"] {
            guard let host = request.headers["Host"], Self.authority(ofOrigin: origin) == host.lowercased() else {
                throw Self.refusal
            }
        }
        // Without the cookie no token can match; a token in the header is compared here already.
        guard let cookieToken = Self.cookieToken(of: request) else { throw Self.refusal }
        if let sent = request.headers[Self.headerName], !SecretToken.constantTimeEquals(sent, cookieToken) {
            throw Self.refusal
        }
    }

    /// A form that sends its token in the body must send it before any file: the app's forms
    /// carry it as their first field.
    public func requiredMultipartField(for head: Request) -> RequiredField? {
        guard head.method.isUnsafe, head.headers[Self.headerName] == nil, !BearerAuthentication.carriesToken(head),
              let cookieToken = Self.cookieToken(of: head) else { return nil }
        return RequiredField(name: Self.fieldName, value: cookieToken, refusal: Self.refusal)
    }

    private static func cookieToken(of request: Request) -> String? {
        request.cookies[cookieName].flatMap { SecretToken.isWellFormed($0) ? $0 : nil }
    }

    private static let refusal = HTTPError(
        .forbidden, "This form has expired or came from another site. Reload the page and try again.")

    /// `http://host:port` → `host:port`; nil for `null` and anything without a scheme.
    private static func authority(ofOrigin origin: String) -> String? {
        guard let separator = origin.range(of: "://") else { return nil }
        return origin[separator.upperBound...].lowercased()
    }
}
