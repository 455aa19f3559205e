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
        // Every response to a client without a CSRF cookie yet sets one: built as bytes, once.
        var text: [UInt8] = []
        text.reserveCapacity(name.utf8.count + value.utf8.count + path.utf8.count + 80)
        text.appendUTF8(name)
        text.appendUTF8("=")
        text.appendUTF8(value)
        text.appendUTF8("; Path=")
        text.appendUTF8(path)
        if let maxAge {
            text.appendUTF8("; Max-Age=")
            text.appendDecimal(maxAge)
        }
        if httpOnly { text.appendUTF8("; HttpOnly") }
        text.appendUTF8("; SameSite=")
        text.appendUTF8(sameSite.rawValue)
        if secure { text.appendUTF8("; Secure") }
        return text.utf8String
    }
}
