/// Keeps other sites from reading data: requests under the protected paths that the browser flags
/// as coming from another site (`Sec-Fetch-Site: cross-site`, or `same-site`, which on localhost is
/// any other port) get a 403, and their responses carry `Cross-Origin-Resource-Policy: same-origin`
/// so a page elsewhere cannot embed them either. Other paths (the HTML screens) stay open to
/// links and bookmarks. Requests without the header (scripts, old browsers) pass.
public struct CrossSiteReadProtection: Middleware {
    private let protectedPaths: [[Substring]]

    /// `paths` are path prefixes by whole segments (`/api` covers `/api` and `/api/trips`, not
    /// `/apiary`); a `*` segment matches any one segment (`/trips/*/photo`).
    public init(paths: [String]) {
        protectedPaths = paths.map(\.pathSegments)
    }

    public func respond(to request: Request, next: Handler) throws -> Response {
        guard isProtected(request.path) else { return try next(request) }
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

    func isProtected(_ path: String) -> Bool {
        let segments = path.pathSegments
        return protectedPaths.contains { prefix in
            prefix.count <= segments.count && zip(prefix, segments).allSatisfy { $0 == "*" || $0 == $1 }
        }
    }
}
