import Foundation
import HTTPServer

/// Something that answers a test's requests one by one, each on its own with no cookies kept:
/// over a fresh connection (`Endpoint`) or in process (`InProcessEndpoint`). Tests written
/// against it run either way.
public protocol RequestSender {
    func send(_ method: String, _ target: String, headers: [String: String], body: [UInt8]) throws -> Reply
}

extension RequestSender {
    public func send(_ method: String, _ target: String, headers: [String: String] = [:]) throws -> Reply {
        try send(method, target, headers: headers, body: [])
    }

    public func get(_ target: String, headers: [String: String] = [:]) throws -> Reply {
        try send("GET", target, headers: headers, body: [])
    }

    /// A form post carrying `token` as both cookie and field (nil: neither).
    public func post(_ target: String, form: [(String, String)], token: String?, headers: [String: String] = [:]) throws -> Reply {
        var fields = form
        var headers = headers
        if let token {
            fields.append((CSRFProtection.fieldName, token))
            headers["Cookie"] = [headers["Cookie"], "\(CSRFProtection.cookieName)=\(token)"].compactMap { $0 }.joined(separator: "; ")
        }
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        return try send("POST", target, headers: headers, body: Array(SocketClient.formEncode(fields).utf8))
    }
}

/// Requests answered by `Server.respond(to:)`: the server's whole answer, error pages and
/// all, without a socket (what needs one: event streams, uploads, malformed HTTP, limits).
public struct InProcessEndpoint: RequestSender, Sendable {
    public let server: Server
    /// The `Host` header sent; nil sends none.
    public var host: String?
    /// The client address the server sees.
    public var remoteAddress = "127.0.0.1"

    public init(server: Server, host: String? = "127.0.0.1") {
        self.server = server
        self.host = host
    }

    public func send(_ method: String, _ target: String, headers: [String: String], body: [UInt8]) throws -> Reply {
        guard let method = HTTPMethod(rawValue: method) else { throw TestFailure("no such method \(method)") }
        var fields = HTTPHeaders()
        if let host { fields.add("Host", host) }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { fields.add(name, value) }
        let response = server.respond(to: try Request(method: method, target: target, headers: fields, body: body,
                                                       remoteAddress: remoteAddress))
        return try Self.reply(response)
    }

    /// The response as the wire would carry it: a file's bytes read, an event stream refused.
    public static func reply(_ response: Response) throws -> Reply {
        let body: [UInt8]
        switch response.body {
        case .empty: body = []
        case .bytes(let bytes): body = bytes
        case .file(let path, _): body = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        case .piped(let piped): body = try piped.readAll()
        case .pulled(let pulled): body = try pulled.readAll()
        case .eventStream: throw TestFailure("an event stream needs a real server (LiveServer)")
        }
        return Reply(status: response.status.code, headers: response.headers.fields, body: body)
    }
}
