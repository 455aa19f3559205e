import CBrotli
import CGnuTLS
import Foundation

/// The files below `root`, read once when the server starts and served from memory under
/// `prefix`, as a well-run CDN serves them:
/// - at a versioned address, `/static/<version>/css/app.css`, where `version` is a hash of every
///   file's bytes: cached by browsers for a year without asking again (`immutable`), since
///   changed files come with a new version. Pages name files through `versionedPrefix`;
/// - at the plain address, `/static/css/app.css` (or an old version's), revalidated each time
///   (`no-cache` and an ETag, 304).
/// Text is compressed once, with Brotli and gzip, and sent as the request's Accept-Encoding takes
/// it. `bundles` join files into one (a page's one stylesheet). No path reaches the file system:
/// only what was read at start is served, so nothing outside `root`, hidden, or behind a link
/// pointing out of it, can be.
public final class StaticFiles: Middleware, Sendable {
    /// A file served as the concatenation of others (in order), under `name`.
    public struct Bundle: Sendable {
        public let name: String
        public let parts: [String]

        public init(_ name: String, of parts: [String]) {
            self.name = name
            self.parts = parts
        }
    }

    public static let contentTypes: [String: String] = [
        "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "svg": "image/svg+xml", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg",
        "webp": "image/webp", "gif": "image/gif", "ico": "image/x-icon", "woff2": "font/woff2",
        "json": "application/json", "webmanifest": "application/manifest+json",
        "txt": "text/plain; charset=utf-8", "html": "text/html; charset=utf-8", "map": "application/json",
    ]
    /// What is read at start, at most: the app's own art, styles and scripts are some 150 KB.
    public static let maxTotalBytes = 32 << 20

    private struct File: Sendable {
        let contentType: String
        let etag: String
        /// The bytes as stored, then compressed where that makes them smaller.
        let identity: [UInt8]
        let brotli: [UInt8]?
        let gzip: [UInt8]?
    }

    private let prefix: String
    private let files: [String: File]
    /// A hash of every file served: the path segment of versioned addresses.
    public let version: String

    /// Reads `root` (which must exist) and makes the `bundles`.
    public init(root: String, prefix: String = "/static/", bundles: [Bundle] = []) throws {
        self.prefix = prefix.hasSuffix("/") ? prefix : prefix + "/"
        var contents = try Self.read(root)
        for bundle in bundles {
            contents[bundle.name] = try bundle.parts.flatMap { part -> [UInt8] in
                guard let bytes = contents[part] else {
                    throw HTTPError(.internalServerError, "The bundle \(bundle.name) names \(part), which is not in \(root).")
                }
                return bytes + [UInt8(ascii: "\n")]
            }
        }
        var files: [String: File] = [:]
        for (name, bytes) in contents {
            let fileExtension = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
            let contentType = Self.contentTypes[fileExtension] ?? "application/octet-stream"
            let isText = contentType.hasPrefix("text/") || contentType.contains("json") || contentType.contains("svg")
            let smaller = { (compressed: [UInt8]) in compressed.count < bytes.count ? compressed : nil }
            files[name] = File(contentType: contentType, etag: "\"\(Self.sha256(bytes).prefix(16))\"", identity: bytes,
                               brotli: isText ? Self.brotli(bytes).flatMap(smaller) : nil,
                               gzip: isText ? smaller(SplicedBody(pieces: [bytes]).gzipped(with: [[UInt8]]())) : nil)
        }
        self.files = files
        version = String(Self.sha256(files.keys.sorted().flatMap { Array($0.utf8) + Array(files[$0]!.etag.utf8) }).prefix(10))
    }

    /// The text of `name` (a stylesheet a page puts inline), or nil for no such file.
    public func text(of name: String) -> String? {
        files[name].map { String(decoding: $0.identity, as: UTF8.self) }
    }

    /// The base64 SHA-256 of `name`'s bytes, as a Content-Security-Policy source names inline text.
    public func contentHash(of name: String) -> String? {
        files[name].map { Data(Self.digest($0.identity)).base64EncodedString() }
    }

    /// Where files are at this version: `versionedPrefix + "css/app.css"`.
    public var versionedPrefix: String { prefix + version + "/" }

    public func respond(to request: Request, next: Handler) throws -> Response {
        guard request.path.hasPrefix(prefix) else { return try next(request) }
        guard request.method == .get || request.method == .head else {
            throw HTTPError(.methodNotAllowed, "Static files can only be read.", headers: ["Allow": "GET, HEAD"])
        }
        var name = request.path.dropFirst(prefix.count)
        var isVersioned = false
        if files[String(name)] == nil, let slash = name.firstIndex(of: "/") {
            // A version segment: this one's, cached for good; an older one's, served as now but revalidated.
            isVersioned = name[..<slash] == version
            name = name[name.index(after: slash)...]
        }
        guard let file = files[String(name)] else { throw HTTPError(.notFound, "There is no file at this address.") }
        let cacheControl = isVersioned ? "public, max-age=31536000, immutable" : "no-cache"
        return Response.conditional(request: request, etag: file.etag, cacheControl: cacheControl) {
            var response = Response(headers: ["Content-Type": file.contentType, "Vary": "Accept-Encoding"])
            if let brotli = file.brotli, request.acceptsEncoding("br") {
                response.body = .bytes(brotli)
                response.headers["Content-Encoding"] = "br"
            } else if let gzip = file.gzip, request.acceptsEncoding("gzip") {
                response.body = .bytes(gzip)
                response.headers["Content-Encoding"] = "gzip"
            } else {
                response.body = .bytes(file.identity)
            }
            return response
        }
    }

    /// Every regular file below `root` by its path from there; hidden names are skipped, and so
    /// is a link that leads out of `root`.
    private static func read(_ root: String) throws -> [String: [UInt8]] {
        let base = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
        guard FileManager.default.fileExists(atPath: base) else {
            throw HTTPError(.internalServerError, "The static file folder \(root) does not exist.")
        }
        var contents: [String: [UInt8]] = [:]
        var total = 0
        let walker = FileManager.default.enumerator(atPath: base)
        while let relative = walker?.nextObject() as? String {
            guard !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else { continue }
            let resolved = URL(fileURLWithPath: base + "/" + relative).resolvingSymlinksInPath().path
            var isDirectory: ObjCBool = false
            guard resolved.hasPrefix(base + "/"), FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory),
                  !isDirectory.boolValue, let data = FileManager.default.contents(atPath: resolved) else { continue }
            total += data.count
            guard total <= maxTotalBytes else {
                throw HTTPError(.internalServerError, "The static file folder \(root) holds more than \(maxTotalBytes >> 20) MB.")
            }
            contents[relative] = Array(data)
        }
        return contents
    }

    private static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        _ = bytes.withUnsafeBytes { gnutls_hash_fast(GNUTLS_DIG_SHA256, $0.baseAddress, bytes.count, &digest) }
        return digest
    }

    private static func sha256(_ bytes: [UInt8]) -> String {
        digest(bytes).map { String(format: "%02x", $0) }.joined()
    }

    /// `bytes` in Brotli for text, once at start, at quality 5: the stylesheet 10.1 KB against 8.7
    /// at the best quality, which made every start 360 ms longer (87 ms in all now).
    private static func brotli(_ bytes: [UInt8]) -> [UInt8]? {
        var size = BrotliEncoderMaxCompressedSize(bytes.count)
        var output = [UInt8](repeating: 0, count: size)
        let done = bytes.withUnsafeBufferPointer { input in
            BrotliEncoderCompress(5, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_TEXT, input.count, input.baseAddress, &size, &output)
        }
        return done == BROTLI_TRUE ? Array(output.prefix(size)) : nil
    }
}
