import HTTPServer

/// A page rendered for any viewer: the HTML split where the viewer's CSRF token goes, so one
/// rendering (kept in the page cache until the next commit) serves every browser, gzipped for
/// those that take it without compressing again.
struct RenderedPage: Sendable {
    let status: HTTPStatus
    let body: SplicedBody

    init(status: HTTPStatus, html: [UInt8], placeholder: String) {
        self.status = status
        body = SplicedBody(splitting: html, at: Array(placeholder.utf8))
    }

    /// The page for `request`'s viewer, with their token in every form.
    func response(for request: Request) -> Response {
        let token = Array((request.csrfToken ?? "").utf8)
        var response: Response
        if request.acceptsEncoding("gzip") {
            response = .html(utf8: body.gzipped(with: token), status: status)
            response.headers["Content-Encoding"] = "gzip"
        } else {
            response = .html(utf8: body.filled(with: token), status: status)
        }
        response.headers["Vary"] = "Accept-Encoding"
        // Pages show data that changes; let the browser revalidate rather than guess.
        response.headers["Cache-Control"] = "no-cache"
        return response
    }
}
