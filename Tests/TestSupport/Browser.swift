import Foundation
import HTTPServer

/// A browser's side of requests answered in process (`Server.respond(to:)`, no socket): it
/// keeps the cookies it is given and sends them back, and posts forms with the CSRF token the
/// way a page's form carries it.
public struct Browser {
    public let respond: @Sendable (Request) -> Response
    public var cookies: [String: String] = [:]
    /// The `Host` header sent; nil sends none.
    public var host: String? = "127.0.0.1"

    public init(_ respond: @escaping @Sendable (Request) -> Response) {
        self.respond = respond
    }

    /// The server's whole answer to a request, with its error pages, but no socket.
    public init(server: Server) {
        self.init(server.respond(to:))
    }

    public mutating func get(_ target: String, headers: [String: String] = [:]) throws -> Reply {
        try send(.get, target, headers: headers)
    }

    /// Posts `form` url-encoded, with the CSRF token from the cookie as a page's form would.
    public mutating func post(_ target: String, form: [(String, String)], headers: [String: String] = [:]) throws -> Reply {
        let token = cookies[CSRFProtection.cookieName].map { [(CSRFProtection.fieldName, $0)] } ?? []
        let body = SocketClient.formEncode(form + token)
        return try send(.post, target, headers: headers.merging(["Content-Type": "application/x-www-form-urlencoded"]) { $1 },
                        body: Array(body.utf8))
    }

    /// Sends exactly these headers (besides `Host` and the cookies) and body.
    public mutating func send(_ method: HTTPMethod, _ target: String, headers: [String: String] = [:], body: [UInt8] = []) throws -> Reply {
        var fields = HTTPHeaders()
        if let host { fields.add("Host", host) }
        if !cookies.isEmpty { fields.add("Cookie", cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")) }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { fields.add(name, value) }
        let request = try Request(method: method, target: target, headers: fields, body: body)
        let reply = try Self.reply(respond(request))
        for (name, value) in reply.setCookies { cookies[name] = value.isEmpty ? nil : value }
        return reply
    }

    /// The response as the wire would carry it: a file's bytes read, an event stream refused.
    static func reply(_ response: Response) throws -> Reply {
        let body: [UInt8]
        switch response.body {
        case .empty: body = []
        case .bytes(let bytes): body = bytes
        case .file(let path, _): body = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        case .eventStream: throw TestFailure("an event stream needs a real server (LiveServer)")
        }
        return Reply(status: response.status.code, headers: response.headers.fields, body: body)
    }
}
