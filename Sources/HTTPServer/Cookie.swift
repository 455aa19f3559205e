/// A `Set-Cookie` value.
public struct Cookie: Sendable {
    public enum SameSite: String, Sendable { case strict = "Strict", lax = "Lax", none = "None" }

    public var name: String
    public var value: String
    public var path: String
    /// Seconds until it expires; nil for a session cookie, 0 to delete it.
    public var maxAge: Int?
    public var httpOnly: Bool
    public var sameSite: SameSite
    public var secure: Bool

    public init(name: String, value: String, path: String = "/", maxAge: Int? = nil, httpOnly: Bool = true,
                sameSite: SameSite = .lax, secure: Bool = false) {
        self.name = name
        self.value = value
        self.path = path
        self.maxAge = maxAge
        self.httpOnly = httpOnly
        self.sameSite = sameSite
        self.secure = secure
    }

    public var headerValue: String {
        var text = "\(name)=\(value); Path=\(path)"
        if let maxAge { text += "; Max-Age=\(maxAge)" }
        if httpOnly { text += "; HttpOnly" }
        text += "; SameSite=\(sameSite.rawValue)"
        if secure { text += "; Secure" }
        return text
    }
}
