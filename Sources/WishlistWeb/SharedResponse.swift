import HTTPServer

/// An answer made once for every viewer and kept while it is current (`PageRenderer.cached`):
/// an HTML page split where the viewer's CSRF token and the page's live-update token go, or
/// JSON, which has no such places. Each response puts them in, gzipped for clients that take
/// it, without rendering or compressing again.
struct SharedResponse: Sendable {
    let status: HTTPStatus
    let contentType: String
    let body: SplicedBody
    /// The history token the page's live updates start from (`data-live-since`). A page found
    /// still current after a commit gets the newer token without being drawn again.
    var liveSince: Int64?
    /// Set on every viewer's answer: the one that says a page's stylesheet is now cached.
    var cookie: Cookie?

    /// A page whose places take what `PageSlot` names.
    init(status: HTTPStatus, html: SplicedBody, liveSince: Int64?, cookie: Cookie? = nil) {
        self.status = status
        contentType = "text/html; charset=utf-8"
        body = html
        self.liveSince = liveSince
        self.cookie = cookie
    }

    /// `value` encoded as the API's JSON (`Response.json`).
    init(json value: some Encodable) throws {
        let encoded = try Response.json(value)
        guard case .bytes(let bytes) = encoded.body else { preconditionFailure("Response.json makes a byte body") }
        status = encoded.status
        contentType = encoded.headers["Content-Type"] ?? "application/json"
        body = SplicedBody(pieces: [bytes])
    }

    /// The answer for `request`'s viewer, with their token in every form.
    func response(for request: Request) -> Response {
        let values = fills(token: request.csrfToken)
        var response = Response(status: status, headers: ["Content-Type": contentType])
        if request.acceptsEncoding("gzip") {
            response.body = .bytes(body.gzipped(with: values))
            response.headers["Content-Encoding"] = "gzip"
        } else {
            response.body = .bytes(body.filled(with: values))
        }
        response.headers["Vary"] = "Accept-Encoding"
        // The data changes; let clients revalidate rather than guess. Private: a page shows the
        // owner's wishlist (behind a password when one is set), never for a shared cache.
        response.headers["Cache-Control"] = "private, no-cache"
        if let cookie { response.setCookie(cookie) }
        return response
    }

    /// What goes in the places: the viewer's token (none: empty fields) and the live token.
    func fills(token: String?) -> [[UInt8]] {
        PageSlot.allCases.map { slot in
            switch slot {
            case .csrfToken: Array((token ?? "").utf8)
            case .liveSince: Array((liveSince.map(String.init) ?? "").utf8)
            }
        }
    }
}

/// The places of a kept page that differ by viewer or by moment, as `SplicedBody` slots (a drawn
/// fragment has the first alone); the page's fragments take the slots after them.
enum PageSlot: Int, CaseIterable {
    case csrfToken, liveSince

    static var firstFragment: Int { allCases.count }
}
