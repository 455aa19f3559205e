/// Lets only signed-in clients through, for a server reachable beyond this machine. A form at
/// `loginPath` takes the password; the right one starts a server-side session (a random id in
/// an HttpOnly, SameSite=Strict cookie, with an expiry); `logoutPath` (POST) ends it.
/// A browser sent to sign in comes back to the page it asked for: its path rides along as
/// `return=` (a path on this site only, `localRedirectPath`), else it goes to `homePath`.
///
/// Wrong passwords are limited per client address and overall, so guesses from many addresses
/// stay bounded too. A locked-out address is refused without its password being looked at,
/// the right one included. While the overall limit is reached, only addresses that signed in
/// before still have their password checked: the owner gets in from a known address (or waits
/// out the window, at most `wrongAttemptWindow`), an attacker's fresh addresses get nothing.
/// Place it after `CSRFProtection`, so the login and
/// logout forms are guarded against cross-site posts, and after `StaticFiles` if the login page
/// needs its stylesheet.
public struct PasswordProtection: Middleware {
    public struct Options: Sendable {
        public var loginPath = "/login"
        public var logoutPath = "/logout"
        /// Where a successful login goes when no page was asked for.
        public var homePath = "/"
        /// Cookies are shared by every port of a host: a name of its own keeps another local
        /// app's `session` cookie from replacing this one.
        public var sessionCookieName = "session"
        public var sessionLifetime: Duration = .seconds(12 * 60 * 60)
        public var maxSessions = 1_000
        /// Wrong passwords allowed per client address within `wrongAttemptWindow`.
        public var wrongAttemptLimit = 5
        /// Wrong passwords allowed from all addresses together within `wrongAttemptWindow`.
        public var overallWrongAttemptLimit = 20
        public var wrongAttemptWindow: Duration = .seconds(60)
        /// How many addresses that signed in are remembered for the overall lock-out.
        public var maxKnownAddresses = 100
        /// What session expiries and the wrong-attempt window are measured on.
        public var clock = InstantSource.continuous

        public init() {}
    }

    /// What the login page should show.
    public struct LoginPrompt: Sendable {
        public let status: HTTPStatus
        /// Why the last attempt failed; nil on a first visit.
        public let message: String?
        /// Where the form posts (`loginPath`), with the password in `passwordFieldName`.
        public let action: String
        /// The page to come back to after signing in, for the form to send on in `returnFieldName`.
        public let returnPath: String?
    }

    public typealias LoginPage = @Sendable (LoginPrompt, Request) throws -> Response

    public static let passwordFieldName = "password"
    /// The query parameter (of the login page) and form field carrying the page asked for.
    public static let returnFieldName = "return"
    public static let wrongPasswordMessage = "That password isn’t right."

    private let password: String
    private let options: Options
    private let loginPage: LoginPage
    private let sessions: SessionStore
    private let wrongAttempts: AttemptLimiter
    private let overallWrongAttempts: AttemptLimiter
    private let knownAddresses: RecentSet
    /// The one key of `overallWrongAttempts`.
    private static let everyone = "*"

    /// `password` must not be empty. `loginPage` renders the form (a single password field
    /// posting to `prompt.action`) with the prompt's status and message.
    public init(password: String, options: Options = Options(), loginPage: @escaping LoginPage) {
        precondition(!password.isEmpty, "An empty password protects nothing.")
        self.password = password
        self.options = options
        self.loginPage = loginPage
        sessions = SessionStore(lifetime: options.sessionLifetime, capacity: options.maxSessions, clock: options.clock)
        wrongAttempts = AttemptLimiter(limit: options.wrongAttemptLimit, window: options.wrongAttemptWindow,
                                       clock: options.clock)
        overallWrongAttempts = AttemptLimiter(limit: options.overallWrongAttemptLimit, window: options.wrongAttemptWindow,
                                              clock: options.clock)
        knownAddresses = RecentSet(capacity: options.maxKnownAddresses)
    }

    public func respond(to request: Request, next: Handler) throws -> Response {
        let session = request.cookies[options.sessionCookieName].flatMap { sessions.isValid($0) ? $0 : nil }
        if request.path == options.loginPath { return try login(request, isSignedIn: session != nil) }
        if request.path == options.logoutPath, request.method == .post { return logout(session, request) }
        if let session {
            let response = try next(request)
            // Signing out (or the session's expiry) ends what it opened, not only what it asks next.
            if case .eventStream(let stream) = response.body { sessions.tie(stream, to: session) }
            return response
        }
        // A valid API token passed `BearerAuthentication`, which accepts it only where it is meant to be.
        if request.bearerTokenName != nil { return try next(request) }
        // A browser navigating gets the login page; scripts and event streams get a plain refusal.
        if request.method == .get || request.method == .head, request.headers["Accept"]?.contains("text/html") == true {
            return .redirect(to: loginAddress(returningTo: request))
        }
        throw HTTPError(.unauthorized, "Sign in first: this server needs a password.")
    }

    private func login(_ request: Request, isSignedIn: Bool) throws -> Response {
        switch request.method {
        case .get, .head:
            return isSignedIn ? .redirect(to: destination(request)) : try prompt(.ok, nil, request)
        case .post:
            return try checkPassword(request)
        default:
            throw HTTPError(.methodNotAllowed, "Sign in with the form on this page.", headers: ["Allow": "GET, HEAD, POST"])
        }
    }

    private func checkPassword(_ request: Request) throws -> Response {
        let client = request.remoteAddress
        if let wait = wrongAttempts.waitTime(for: client)
            ?? (knownAddresses.contains(client) ? nil : overallWrongAttempts.waitTime(for: Self.everyone)) {
            return try refusal(waiting: wait, request)
        }
        guard SecretToken.constantTimeEquals(request.form[Self.passwordFieldName] ?? "", password) else {
            wrongAttempts.recordFailure(for: client)
            overallWrongAttempts.recordFailure(for: Self.everyone)
            return try prompt(.forbidden, Self.wrongPasswordMessage, request)
        }
        wrongAttempts.reset(for: client)
        knownAddresses.insert(client)
        return Response.redirect(to: destination(request)).settingCookie(sessionCookie(try sessions.create(), maxAge: options.sessionLifetime.components.seconds, request))
    }

    /// The login page, carrying the page this navigation asked for (none for the home page).
    private func loginAddress(returningTo request: Request) -> String {
        let asked = PercentEncoding.encode(request.path, keeping: "/") + (request.rawQuery.isEmpty ? "" : "?" + request.rawQuery)
        guard asked != options.homePath, localRedirectPath(asked) != nil else { return options.loginPath }
        return options.loginPath + "?" + Self.returnFieldName + "=" + PercentEncoding.encode(asked)
    }

    /// The page asked for (the login page's query, then its form), if it is one on this site.
    private func returnPath(_ request: Request) -> String? {
        localRedirectPath(request.form[Self.returnFieldName] ?? request.query[Self.returnFieldName])
    }

    /// Where signing in leads.
    private func destination(_ request: Request) -> String {
        returnPath(request) ?? options.homePath
    }

    private func refusal(waiting wait: Duration, _ request: Request) throws -> Response {
        let seconds = max(1, Int(wait.components.seconds) + (wait.components.attoseconds > 0 ? 1 : 0))
        var response = try prompt(.tooManyRequests, "Too many wrong passwords. Try again in \(seconds) second\(seconds == 1 ? "" : "s").", request)
        response.headers["Retry-After"] = String(seconds)
        return response
    }

    private func logout(_ session: String?, _ request: Request) -> Response {
        if let session { sessions.end(session) }
        var response = Response.redirect(to: options.loginPath).settingCookie(sessionCookie("", maxAge: 0, request))
        // What the browser kept of the signed-in pages goes with the session: its HTTP cache
        // (photos are kept a year) and its back/forward cache. Not "storage": that would also
        // drop the writes a page keeps to send later.
        response.headers["Clear-Site-Data"] = #""cache""#
        return response
    }

    /// `Secure` over TLS: a browser then never sends the session over plain HTTP.
    private func sessionCookie(_ value: String, maxAge: Int64, _ request: Request) -> Cookie {
        Cookie(name: options.sessionCookieName, value: value, maxAge: Int(maxAge), httpOnly: true, sameSite: .strict,
               secure: request.isSecure)
    }

    private func prompt(_ status: HTTPStatus, _ message: String?, _ request: Request) throws -> Response {
        var response = try loginPage(LoginPrompt(status: status, message: message, action: options.loginPath,
                                                 returnPath: returnPath(request)), request)
        response.headers["Cache-Control"] = "no-store"
        return response
    }
}
