import HTTPServer

/// A browser's side of a conversation with a server: it keeps the cookies it is given and
/// sends them back, and posts forms with the CSRF token the way a page's form carries it.
public struct Browser {
    public let sender: any RequestSender
    public var cookies: [String: String] = [:]

    public init(_ sender: any RequestSender) {
        self.sender = sender
    }

    /// In process, through `Server.respond(to:)`.
    public init(server: Server) {
        self.init(InProcessEndpoint(server: server))
    }

    public mutating func get(_ target: String, headers: [String: String] = [:]) throws -> Reply {
        try send(.get, target, headers: headers)
    }

    /// Posts `form` url-encoded, with the CSRF token from the cookie as a page's form would.
    public mutating func post(_ target: String, form: [(String, String)], headers: [String: String] = [:]) throws -> Reply {
        let token = cookies[CSRFProtection.cookieName].map { [(CSRFProtection.fieldName, $0)] } ?? []
        return try send(.post, target, headers: headers.merging(["Content-Type": "application/x-www-form-urlencoded"]) { $1 },
                        body: Array(SocketClient.formEncode(form + token).utf8))
    }

    /// Sends exactly these headers (besides `Host` and the cookies) and body.
    public mutating func send(_ method: HTTPMethod, _ target: String, headers: [String: String] = [:], body: [UInt8] = []) throws -> Reply {
        var headers = headers
        if !cookies.isEmpty { headers["Cookie"] = cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }
        let reply = try sender.send(method.rawValue, target, headers: headers, body: body)
        for (name, value) in reply.setCookies { cookies[name] = value.isEmpty ? nil : value }
        return reply
    }
}
