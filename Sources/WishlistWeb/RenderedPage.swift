import HTTPServer

/// A page rendered for any viewer: the HTML split where the viewer's CSRF token goes, so one
/// rendering (kept in the page cache until the next commit) serves every browser.
struct RenderedPage: Sendable {
    let status: HTTPStatus
    /// The page's bytes between the token's places; `segments.count - 1` tokens go between them.
    let segments: [[UInt8]]

    /// Splits `html` at each occurrence of `placeholder` (ASCII, with no repeated prefix).
    init(status: HTTPStatus, html: [UInt8], placeholder: String) {
        self.status = status
        let needle = Array(placeholder.utf8)
        var segments: [[UInt8]] = []
        var segmentStart = 0
        var index = 0
        while index + needle.count <= html.count {
            if html[index] == needle[0], html[index..<index + needle.count].elementsEqual(needle) {
                segments.append(Array(html[segmentStart..<index]))
                index += needle.count
                segmentStart = index
            } else {
                index += 1
            }
        }
        segments.append(Array(html[segmentStart...]))
        self.segments = segments
    }

    /// The page for `request`'s viewer, with their token in every form.
    func response(for request: Request) -> Response {
        let token = Array((request.csrfToken ?? "").utf8)
        var html: [UInt8] = []
        html.reserveCapacity(segments.reduce(0) { $0 + $1.count } + token.count * (segments.count - 1))
        for (index, segment) in segments.enumerated() {
            if index > 0 { html += token }
            html += segment
        }
        var response = Response.html(utf8: html, status: status)
        // Pages show data that changes; let the browser revalidate rather than guess.
        response.headers["Cache-Control"] = "no-cache"
        return response
    }
}
