/// Keeps other sites from reading data or making the server work: requests for anything but the
/// open pages that the browser flags as coming from another site (`Sec-Fetch-Site: cross-site`, or
/// `same-site`, which on localhost is any other port) get a 403, and the answers carry
/// `Cross-Origin-Resource-Policy: same-origin` so a page elsewhere cannot embed them either. The
/// open pages (the HTML screens) stay reachable from links and bookmarks. Requests without the
/// header (scripts, old browsers) pass.
public struct CrossSiteReadProtection: Middleware {
    private let isOpen: @Sendable (String) -> Bool

    /// `isOpen`: whether a path is a page other sites may link to (`Router.isPage`); all else is protected.
    public init(openPages isOpen: @escaping @Sendable (String) -> Bool) {
        self.isOpen = isOpen
    }

    public func respond(to request: Request, next: Handler) throws -> Response {
        guard !isOpen(request.path) else { return try next(request) }
        let policy: HTTPHeaders = ["Cross-Origin-Resource-Policy": "same-origin"]
        if let site = request.headers["Sec-Fetch-Site"]?.lowercased(), site == "cross-site" || site == "same-site" {
            var refusal = HTTPError(.forbidden, "This address only answers pages of this site.")
            refusal.headers.addAbsent(policy)
            throw refusal
        }
        do {
            var response = try next(request)
            response.headers.addAbsent(policy)
            return response
        } catch {
            var httpError = HTTPError(wrapping: error)
            httpError.headers.addAbsent(policy)
            throw httpError
        }
    }
}
