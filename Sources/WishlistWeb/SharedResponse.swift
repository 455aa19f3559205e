import HTTPServer

/// An answer made once for every viewer and kept until the next commit (`PageRenderer.cached`):
/// an HTML page split where the viewer's CSRF token goes, or JSON, which has no such place.
/// Each response puts the viewer's token in, gzipped for clients that take it, without
/// rendering or compressing again.
struct SharedResponse: Sendable {
    let status: HTTPStatus
    let contentType: String
    let body: SplicedBody

    /// A page rendered with `placeholder` where the token goes.
    init(status: HTTPStatus, html: [UInt8], placeholder: String) {
        self.status = status
        contentType = "text/html; charset=utf-8"
        body = SplicedBody(splitting: html, at: Array(placeholder.utf8))
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
        let token = Array((request.csrfToken ?? "").utf8)
        var response = Response(status: status, headers: ["Content-Type": contentType])
        if request.acceptsEncoding("gzip") {
            response.body = .bytes(body.gzipped(with: token))
            response.headers["Content-Encoding"] = "gzip"
        } else {
            response.body = .bytes(body.filled(with: token))
        }
        response.headers["Vary"] = "Accept-Encoding"
        // The data changes; let clients revalidate rather than guess. Private: a page shows the
        // owner's wishlist (behind a password when one is set), never for a shared cache.
        response.headers["Cache-Control"] = "private, no-cache"
        return response
    }
}
