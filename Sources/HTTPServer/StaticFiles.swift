import Glibc

/// Serves files below `root` at `prefix` (e.g. `/static/css/app.css`), with a Content-Type by
/// extension, a strong ETag (304 on If-None-Match) and Cache-Control. Nothing outside `root`
/// is reachable: `..` and `.` segments, hidden files and backslashes are refused before the
/// file system is asked, and the resolved real path (symlinks followed) must lie inside `root`.
public struct StaticFiles: Middleware {
    public static let contentTypes: [String: String] = [
        "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "svg": "image/svg+xml", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg",
        "webp": "image/webp", "gif": "image/gif", "ico": "image/x-icon", "woff2": "font/woff2",
        "json": "application/json", "txt": "text/plain; charset=utf-8", "html": "text/html; charset=utf-8",
        "map": "application/json",
    ]

    private let root: String
    private let prefix: String
    private let cacheControl: String

    /// `root` must exist. `cacheControl` defaults to revalidating every time (cheap: a 304).
    public init(root: String, prefix: String = "/static/", cacheControl: String = "no-cache") throws {
        guard let resolved = Self.realPath(root) else {
            throw HTTPError(.internalServerError, "The static file folder \(root) does not exist.")
        }
        self.root = resolved
        self.prefix = prefix.hasSuffix("/") ? prefix : prefix + "/"
        self.cacheControl = cacheControl
    }

    public func respond(to request: Request, next: Handler) throws -> Response {
        guard request.path.hasPrefix(prefix) else { return try next(request) }
        guard request.method == .get || request.method == .head else {
            throw HTTPError(.methodNotAllowed, "Static files can only be read.", headers: ["Allow": "GET, HEAD"])
        }
        let relative = request.path.dropFirst(prefix.count)
        let segments = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard !relative.isEmpty, !relative.contains("\\"),
              segments.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") }),
              let path = Self.realPath(root + "/" + relative), path.hasPrefix(root + "/") else {
            throw Self.notFound
        }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { throw Self.notFound }
        let size = Int(info.st_size)
        let modified = UInt64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ UInt64(info.st_mtim.tv_nsec)
        let etag = "\"\(String(size, radix: 16))-\(String(modified, radix: 16))\""
        let name = segments[segments.count - 1]
        let fileExtension = name.lastIndex(of: ".").map { name[name.index(after: $0)...].lowercased() } ?? ""
        let contentType = Self.contentTypes[fileExtension] ?? "application/octet-stream"
        return Response.conditional(request: request, etag: etag, cacheControl: cacheControl) {
            Response(headers: ["Content-Type": contentType], body: .file(path: path, size: size))
        }
    }

    private static let notFound = HTTPError(.notFound, "There is no file at this address.")

    private static func realPath(_ path: some StringProtocol) -> String? {
        guard let resolved = realpath(String(path), nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
