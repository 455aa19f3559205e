import Foundation
import HTTPServer
import Imaging
import Synchronization
import WishlistCore

/// A write sent again with the same `Idempotency-Key` (kept while offline and sent once more after
/// its answer was lost) is written once. The key is kept in SQLite in the write's own transaction
/// (`WishlistStore.recordingKey`), so a restart or a crash forgets no key whose write committed;
/// with it the request's fingerprint (method, target, body, and who sent it: an API token or a
/// browser), and after the commit the answer, which a replay gets without the write running.
/// The same key with another fingerprint is refused (422), never answered with another write's
/// answer. A duplicate arriving while its first copy is still being written is answered 409 at
/// once (the offline queue tries again shortly), never kept waiting in a write slot. A request
/// that committed nothing (refused, 412, 422) keeps no key: sent again, it is decided again.
final class IdempotentWrites: Middleware, Sendable {
    static let header = "Idempotency-Key"
    /// Answers kept for replays at most this large; a larger one is replayed as `savedAlready`.
    static let maxBody = 16 << 10

    private let store: WishlistStore
    private let quota: Int
    /// Keys whose request is being answered now, in this process.
    private let inFlight = Mutex(Set<String>())

    init(store: WishlistStore, quota: Int = WishlistStore.idempotencyKeysPerClient) {
        self.store = store
        self.quota = quota
    }

    func respond(to request: Request, next: Handler) throws -> Response {
        guard request.method.isUnsafe, let key = request.headers[Self.header] else { return try next(request) }
        guard Self.isWellFormed(key) else {
            throw HTTPError(.badRequest, "An Idempotency-Key is 1 to 64 letters, digits, “-” and “_”.")
        }
        guard inFlight.withLock({ $0.insert(key).inserted }) else {
            throw HTTPError(.conflict, "This change is being saved already. Try again in a moment.", headers: ["Retry-After": "1"])
        }
        defer { _ = inFlight.withLock { $0.remove(key) } }
        let fingerprint = try Self.fingerprint(of: request)
        if let kept = try store.keptWrite(key: key) {
            guard kept.fingerprint == fingerprint else {
                throw HTTPError(.unprocessableContent, "This Idempotency-Key was sent with another request. Send each write with a key of its own.")
            }
            return kept.answer.map(Self.response) ?? Self.savedAlready
        }
        let recording = store.recordingKey(key, client: Self.client(of: request), fingerprint: fingerprint, quota: quota)
        let response = try store.database.withCompanion(recording) { try next(request) }
        if recording.hasCommitted, let answer = Self.keepable(response) {
            // Not kept (the wishlist busy a moment): a replay is told it was saved, and not written again.
            try? store.keepAnswer(answer, forKey: key)
        }
        return response
    }

    /// The replay of a write that committed but whose answer was not kept.
    static var savedAlready: Response {
        Response(status: .ok, headers: ["Content-Type": "text/plain; charset=utf-8"],
                 body: .bytes(Array("This change was saved already.".utf8)))
    }

    private static func response(_ answer: KeptAnswer) -> Response {
        var response = Response(status: HTTPStatus(code: answer.status, reason: ""), body: .bytes(answer.body))
        if let location = answer.location { response.headers["Location"] = location }
        if let contentType = answer.contentType { response.headers["Content-Type"] = contentType }
        return response
    }

    private static func keepable(_ response: Response) -> KeptAnswer? {
        let body: [UInt8]? = switch response.body {
        case .empty: []
        case .bytes(let bytes) where bytes.count <= maxBody: bytes
        default: nil
        }
        guard response.status.code < 500, let body else { return nil }
        return KeptAnswer(status: response.status.code, location: response.headers["Location"],
                          contentType: response.headers["Content-Type"], body: body)
    }

    /// Who sent it: an API token, else a browser (any of the password's holder: a session ends
    /// with a restart, and a write kept offline is sent again from the next one).
    private static func sender(of request: Request) -> String {
        request.bearerTokenName.map(WishlistStore.author(ofToken:)) ?? "browser"
    }

    /// The client whose quota a key counts in: the token, or the browser by its CSRF cookie.
    private static func client(of request: Request) -> String {
        guard request.bearerTokenName == nil, let cookie = request.cookies[CSRFProtection.cookieName] else { return sender(of: request) }
        return "browser:" + SHA256.hexDigest(of: cookie).prefix(16)
    }

    /// A digest of what the write is: method, target, sender and body. A form's CSRF field is left
    /// out (a write kept offline may go with the browser's next token); its files count by content.
    static func fingerprint(of request: Request) throws -> String {
        let hasher = SHA256()
        for part in [request.method.rawValue, request.path, request.rawQuery, sender(of: request)] {
            hasher.update(part + "\u{0}")
        }
        for (name, value) in request.form where name != CSRFProtection.fieldName {
            hasher.update("\(name.utf8.count):\(name)\(value.utf8.count):\(value)")
        }
        for file in request.files {
            hasher.update("\u{0}\(file.fieldName)\u{0}\(file.fileName)\u{0}\(file.size)\u{0}")
            try hasher.update(contentsOfFileAt: file.path)
        }
        request.body.withUnsafeBytes { hasher.update($0) }
        return hasher.hexDigest()
    }

    static func isWellFormed(_ key: String) -> Bool {
        (1...64).contains(key.utf8.count) && key.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }
}
