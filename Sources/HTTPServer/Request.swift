/// One HTTP request, complete with its body, as handlers see it.
public struct Request: Sendable {
    public var method: HTTPMethod
    /// The percent-decoded path, without the query string (`%2F` decodes to `/` too).
    public var path: String
    /// The query string as sent, without the `?`.
    public var rawQuery: String
    public var query: QueryParameters
    public var headers: HTTPHeaders
    public var cookies: [String: String]
    /// Parameters captured from the route pattern (`/items/:id` gives `parameters["id"]`).
    public var parameters: [String: String]
    /// Fields of a url-encoded or multipart form body.
    public var form: FormFields
    /// File parts of a multipart body, already streamed to temporary files that are deleted
    /// after the response is sent.
    public var files: [UploadedFile]
    /// The body, for content types other than forms (e.g. JSON).
    public var body: [UInt8]
    /// The CSRF token for this client, set by `CSRFProtection`, for pages to embed in forms.
    public var csrfToken: String?
    /// The API token the request came with, by name (`BearerAuthentication`): then it has no cookies.
    public var bearerTokenName: String?
    /// The client's IP address, e.g. `127.0.0.1`.
    public var remoteAddress: String
    /// It came over TLS: cookies set in answer get `Secure`.
    public var isSecure = false

    /// The scheme and host this request came to, as links in a file that leaves the browser (a
    /// calendar, a map app's file) start; trust it only behind `HostValidation`.
    public var origin: String {
        "\(isSecure ? "https" : "http")://\(headers["Host"] ?? "localhost")"
    }

    public init(method: HTTPMethod, path: String, rawQuery: String = "", headers: HTTPHeaders = HTTPHeaders(),
                form: FormFields = FormFields(), files: [UploadedFile] = [], body: [UInt8] = [],
                remoteAddress: String = "") {
        self.method = method
        self.path = path
        self.rawQuery = rawQuery
        self.query = rawQuery.isEmpty ? FieldList() : PercentEncoding.parseFields(rawQuery)
        self.headers = headers
        self.cookies = Self.parseCookies(headers)
        self.parameters = [:]
        self.form = form
        self.files = files
        self.body = body
        self.csrfToken = nil
        self.remoteAddress = remoteAddress
    }

    /// A request for `target` as sent on the request line (path and query string), carrying
    /// `body`: parsed by the server's own code, so tests can call a handler directly, with no
    /// socket, and see what the server would have made of the same bytes.
    public init(method: HTTPMethod, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
                remoteAddress: String = "127.0.0.1") throws(HTTPError) {
        self = try Self(method: method, target: target, headers: headers, remoteAddress: remoteAddress)
        try receiveBody(body)
    }

    /// The request line's target split into the decoded path and the query string.
    init(method: HTTPMethod, target: String, headers: HTTPHeaders, remoteAddress: String) throws(HTTPError) {
        let mark = target.utf8.firstIndex(of: UInt8(ascii: "?"))
        let rawPath = target[..<(mark ?? target.endIndex)]
        let rawQuery = mark.map { target[target.index(after: $0)...] } ?? ""
        guard rawPath.utf8.first == UInt8(ascii: "/"), let path = PercentEncoding.decode(rawPath, plusAsSpace: false) else {
            throw HTTPError(.badRequest, "The address is not valid.")
        }
        self.init(method: method, path: path, rawQuery: String(rawQuery), headers: headers, remoteAddress: remoteAddress)
    }

    /// A url-encoded form body becomes `form` (by its `Content-Type`); any other, `body`.
    mutating func receiveBody(_ bytes: [UInt8]) throws(HTTPError) {
        guard headers["Content-Type"]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true else {
            body = bytes
            return
        }
        guard let text = String(validating: bytes, as: UTF8.self), let form = PercentEncoding.parseForm(text) else {
            throw HTTPError(.badRequest, "The form data is not valid UTF-8 text.")
        }
        self.form = form
    }

    /// The `Host` header without its port, lowercased.
    public var hostName: String? {
        guard let host = headers["Host"] else { return nil }
        return Self.hostName(fromAuthority: host)
    }

    /// Asked for every request (host validation): found on the bytes, lowercased only when needed.
    static func hostName(fromAuthority authority: String) -> String {
        let bytes = authority.utf8
        let end: String.Index
        if bytes.first == UInt8(ascii: "["), let bracket = bytes.firstIndex(of: UInt8(ascii: "]")) {
            end = bytes.index(after: bracket)
        } else {
            end = bytes.firstIndex(of: UInt8(ascii: ":")) ?? bytes.endIndex
        }
        let name = authority[..<end]
        let isLowercaseASCII = name.utf8.allSatisfy { $0 < 0x80 && !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
        return isLowercaseASCII ? String(name) : name.lowercased()
    }

    /// Split on the bytes: a browser sends its cookies with every request, and splitting them as
    /// characters cost ~35,000 instructions for one 64-character token.
    private static func parseCookies(_ headers: HTTPHeaders) -> [String: String] {
        var cookies: [String: String] = [:]
        for (name, header) in headers where name.caseInsensitiveEquals("Cookie") {
            var header = header
            header.withUTF8 { bytes in
                func text(_ range: Range<Int>) -> String {
                    var range = range
                    while let first = range.first, bytes[first] == 32 || bytes[first] == 9 { range = range.dropFirst() }
                    while let last = range.last, bytes[last] == 32 || bytes[last] == 9 { range = range.dropLast() }
                    return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
                }
                var pairStart = 0
                while pairStart < bytes.count {
                    let pairEnd = bytes[pairStart...].firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
                    if let equals = bytes[pairStart..<pairEnd].firstIndex(of: UInt8(ascii: "=")) {
                        let name = text(pairStart..<equals)
                        // The first of duplicate names is the most specific path: keep it.
                        if !name.isEmpty, cookies[name] == nil { cookies[name] = text(equals + 1..<pairEnd) }
                    }
                    pairStart = pairEnd + 1
                }
            }
        }
        return cookies
    }
}

/// A file part of a multipart upload, stored in a temporary file.
public struct UploadedFile: Sendable {
    public let fieldName: String
    /// The name the client gave: untrusted, never use it as a path.
    public let fileName: String
    /// The type the client claimed: untrusted, check the bytes.
    public let contentType: String
    public let size: Int
    /// The temporary file holding the bytes; deleted after the response is sent, so move
    /// (rename) it to keep it.
    public let path: String
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        let bytes = utf8
        var start = bytes.startIndex, end = bytes.endIndex
        while start < end, bytes[start] == 32 || bytes[start] == 9 { start = bytes.index(after: start) }
        while end > start, bytes[bytes.index(before: end)] == 32 || bytes[bytes.index(before: end)] == 9 {
            end = bytes.index(before: end)
        }
        return String(self[start..<end])
    }
}
