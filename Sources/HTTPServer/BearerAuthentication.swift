import CGnuTLS

/// API tokens for scripts (`Authorization: Bearer <secret>`), for the paths given only. The server
/// keeps no secret, only its SHA-256 (`BearerToken.hash`), and `verify` names the token that hash
/// belongs to. A bearer request carries no cookies past this point, so it is no browser's: it
/// cannot be forged cross-site (a page cannot set the header), `CSRFProtection` lets it through
/// without a token, and `PasswordProtection` without a session. A wrong, revoked or misplaced
/// token is a 401 with `WWW-Authenticate: Bearer`, never a fall-back to cookies.
/// Place it before `CSRFProtection`, in the chain and among the head checks (so an upload with a
/// bad token is refused before its body is read).
public struct BearerAuthentication: HeadCheck {
    /// The name of the token whose secret hashes to this (`BearerToken.hash`); nil when none does.
    public typealias Verify = @Sendable (_ secretHash: String) throws -> String?

    private let paths: [String]
    private let verify: Verify

    /// `paths` are prefixes by whole segments (`/api` covers `/api/trips`, not `/apis`).
    public init(paths: [String], verify: @escaping Verify) {
        self.paths = paths
        self.verify = verify
    }

    public func respond(to request: Request, next: Handler) throws -> Response {
        guard let name = try tokenName(of: request) else { return try next(request) }
        var request = request
        request.cookies = [:]
        request.bearerTokenName = name
        return try next(request)
    }

    public func check(head request: Request) throws(HTTPError) {
        do { _ = try tokenName(of: request) } catch { throw HTTPError(wrapping: error) }
    }

    /// Whether the request says it is a script's: any `Authorization` header, which only
    /// `BearerAuthentication` accepts (a wrong one is refused, never ignored).
    static func carriesToken(_ request: Request) -> Bool {
        request.headers["Authorization"] != nil
    }

    /// The verified token's name; nil without an `Authorization` header.
    private func tokenName(of request: Request) throws -> String? {
        guard let header = request.headers["Authorization"] else { return nil }
        let scheme = "bearer "
        guard header.count > scheme.count, header.prefix(scheme.count).lowercased() == scheme else {
            throw Self.refusal("Send an API token as “Authorization: Bearer <token>”.")
        }
        guard paths.contains(where: { Self.path(request.path, isUnder: $0) }) else {
            throw Self.refusal("API tokens are only accepted under \(paths.joined(separator: ", ")).")
        }
        let secret = header.dropFirst(scheme.count).trimmingCharacters(in: .whitespaces)
        guard let name = try verify(BearerToken.hash(secret)) else {
            throw Self.refusal("That API token is not valid (it may have been revoked).", error: "invalid_token")
        }
        return name
    }

    static func path(_ path: String, isUnder prefix: String) -> Bool {
        path == prefix || path.hasPrefix(prefix.hasSuffix("/") ? prefix : prefix + "/")
    }

    static func refusal(_ message: String, error: String? = nil) -> HTTPError {
        HTTPError(.unauthorized, message, headers: ["WWW-Authenticate": error.map { "Bearer error=\"\($0)\"" } ?? "Bearer"])
    }
}

/// The secrets of API tokens: made here, shown once, kept only as their hash.
public enum BearerToken {
    /// Marks a secret as this app's API token (in logs, in a secret scanner's rules).
    public static let prefix = "wlt_"

    /// A new secret: the prefix and 32 random bytes as hex. Other secrets kept the same way (a
    /// calendar feed's) carry a prefix of their own.
    public static func make(prefix: String = prefix) throws(HTTPError) -> String {
        prefix + (try SecretToken.make())
    }

    /// SHA-256 of the secret as 64 lowercase hex digits. A secret is 256 random bits, so a plain
    /// hash (no salt, no stretching) is enough: there is nothing to guess from it.
    public static func hash(_ secret: String) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        let bytes = Array(secret.utf8)
        let result = bytes.withUnsafeBytes { input in
            gnutls_hash_fast(GNUTLS_DIG_SHA256, input.baseAddress, input.count, &digest)
        }
        precondition(result == 0, "GnuTLS could not compute SHA-256")
        return digest.map { byte in
            String(hexDigit(byte >> 4)) + String(hexDigit(byte & 0x0f))
        }.joined()
    }

    private static func hexDigit(_ value: UInt8) -> Character {
        Character(Unicode.Scalar(value < 10 ? 48 + value : 87 + value))
    }
}
