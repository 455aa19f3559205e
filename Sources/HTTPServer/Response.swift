import Foundation

/// What a handler answers.
public struct Response: Sendable {
    public enum Body: Sendable {
        case empty
        case bytes([UInt8])
        /// A file sent straight from disk; `size` is its length in bytes.
        case file(path: String, size: Int)
        /// A long-lived `text/event-stream` body fed by `EventStream.send(_:)`.
        case eventStream(EventStream)
        /// A body of unknown length made while it is sent, by a thread of its own (`PipedBody`).
        case piped(PipedBody)
        /// A body of unknown length made part by part as the client takes it (`PulledBody`).
        case pulled(PulledBody)
    }

    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: Body

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: Body = .empty) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The body length when known in advance (not for event streams, piped and pulled bodies).
    public var bodySize: Int {
        switch body {
        case .empty, .eventStream, .piped, .pulled: 0
        case .bytes(let bytes): bytes.count
        case .file(_, let size): size
        }
    }

    public static func html(_ html: String, status: HTTPStatus = .ok) -> Response {
        .html(utf8: Array(html.utf8), status: status)
    }

    /// HTML already encoded, such as a template's output: no round trip through `String`
    /// (validating and copying a page's bytes twice was a tenth of its render time in a profile).
    public static func html(utf8 bytes: [UInt8], status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "text/html; charset=utf-8"], body: .bytes(bytes))
    }

    public static func text(_ text: String, status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: .bytes(Array(text.utf8)))
    }

    /// JSON with sorted keys and ISO 8601 dates in UTC with milliseconds (what scripts in any
    /// language can read; whole seconds made two records of one second look alike to a sync client).
    public static func json(_ value: some Encodable, status: HTTPStatus = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        }
        let data = try encoder.encode(value)
        return Response(status: status, headers: ["Content-Type": "application/json"], body: .bytes(Array(data)))
    }

    /// 303 See Other: after a form post, the browser follows with a GET.
    public static func redirect(to location: String) -> Response {
        Response(status: .seeOther, headers: ["Location": location])
    }

    /// An event stream response; keep `stream` to send events to this client.
    public static func eventStream(_ stream: EventStream) -> Response {
        Response(headers: ["Content-Type": "text/event-stream", "Cache-Control": "no-cache",
                           "X-Accel-Buffering": "no"],
                 body: .eventStream(stream))
    }

    public mutating func setCookie(_ cookie: Cookie) {
        headers.add("Set-Cookie", cookie.headerValue)
    }

    public func settingCookie(_ cookie: Cookie) -> Response {
        var response = self
        response.setCookie(cookie)
        return response
    }

    /// 304 Not Modified when the request's `If-None-Match` names `etag`; otherwise the response
    /// `make` builds (only then), tagged with `etag`. `etag` includes its quotes: `"abc"`.
    public static func conditional(request: Request, etag: String, cacheControl: String? = nil,
                                   make: () throws -> Response) rethrows -> Response {
        var response: Response
        if let ifNoneMatch = request.headers["If-None-Match"], matches(ifNoneMatch, etag: etag) {
            response = Response(status: .notModified)
        } else {
            response = try make()
        }
        response.headers["ETag"] = etag
        if let cacheControl { response.headers["Cache-Control"] = cacheControl }
        return response
    }

    private static func matches(_ ifNoneMatch: String, etag: String) -> Bool {
        let wanted = etag.hasPrefix("W/") ? etag.dropFirst(2) : Substring(etag)
        return ifNoneMatch.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingSpaces
            return tag == "*" || (tag.hasPrefix("W/") ? tag.dropFirst(2) : Substring(tag)) == wanted
        }
    }
}
