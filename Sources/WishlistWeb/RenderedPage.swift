import Glibc
import HTTPServer

/// A page rendered for any viewer: the HTML split where the viewer's CSRF token goes, so one
/// rendering (kept in the page cache until the next commit) serves every browser.
struct RenderedPage: Sendable {
    let status: HTTPStatus
    /// The page's bytes between the token's places; `segments.count - 1` tokens go between them.
    let segments: [[UInt8]]

    /// Splits `html` at each occurrence of `placeholder`.
    init(status: HTTPStatus, html: [UInt8], placeholder: String) {
        self.status = status
        let needle = Array(placeholder.utf8)
        // memchr for the first byte, then memcmp: a page is 10–40 KB and this runs on every
        // render; the placeholder starts with a byte that is rare in HTML.
        let starts: [Int] = html.withUnsafeBytes { page in
            needle.withUnsafeBytes { needle in
                var starts: [Int] = []
                var offset = 0
                while page.count - offset >= needle.count,
                      let found = memchr(page.baseAddress! + offset, Int32(needle[0]), page.count - offset - needle.count + 1) {
                    let start = page.baseAddress!.distance(to: UnsafeRawPointer(found))
                    if memcmp(found, needle.baseAddress!, needle.count) == 0 {
                        starts.append(start)
                        offset = start + needle.count
                    } else {
                        offset = start + 1
                    }
                }
                return starts
            }
        }
        var segments: [[UInt8]] = []
        var segmentStart = 0
        for start in starts {
            segments.append(Array(html[segmentStart..<start]))
            segmentStart = start + needle.count
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
