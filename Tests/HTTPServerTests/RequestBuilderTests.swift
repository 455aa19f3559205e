import Foundation
import Synchronization
import Testing
import TestSupport
@testable import HTTPServer

/// `Request(method:target:headers:body:)`, the in-process tests' way in, makes what the server
/// makes of the same request line and body.
@Suite struct RequestBuilderTests {
    /// What a handler can see of a request's target and body.
    static func parsed(_ request: Request) -> String {
        let query = request.query.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        let form = request.form.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        return "\(request.method.rawValue) \(request.path) ?\(request.rawQuery) [\(query)] form[\(form)] body[\(request.body.count)]"
    }

    @Test(arguments: [
        ("GET", "/trips/a%20b%2Fc?q=caf%C3%A9+au+lait&q=2&empty", nil as String?, ""),
        ("POST", "/trips", "application/x-www-form-urlencoded", "name=Oslo+%C3%A5&_csrf=x&name=2"),
        ("POST", "/api/things", "application/json", "{\"a\": 1}"),
        ("GET", "/?", nil, ""),
    ])
    func theBuiltRequestIsTheServersRequest(method: String, target: String, contentType: String?, body: String) throws {
        let seen = Mutex<String?>(nil)
        let handler: Handler = { request in
            seen.withLock { $0 = Self.parsed(request) }
            return .text("ok")
        }
        var headers = ["Host": "127.0.0.1"]
        if let contentType { headers["Content-Type"] = contentType }
        try withServer(handler: handler) { server in
            _ = try SocketClient(port: server.port).request(method, target, headers: headers, body: Array(body.utf8))
        }
        var fields = HTTPHeaders()
        for (name, value) in headers { fields.add(name, value) }
        let built = try Request(method: try #require(HTTPMethod(rawValue: method)), target: target, headers: fields,
                                body: Array(body.utf8))
        #expect(try #require(seen.withLock { $0 }) == Self.parsed(built))
    }

    @Test(arguments: [("/a%00b", ""), ("trips", ""), ("/trips", "name=%FF")])
    func whatTheServerRefusesWith400TheBuilderRefusesToo(target: String, form: String) throws {
        var headers = HTTPHeaders()
        headers.add("Content-Type", "application/x-www-form-urlencoded")
        #expect(throws: HTTPError.self) { try Request(method: .post, target: target, headers: headers, body: Array(form.utf8)) }
        let status = try withServer(handler: { _ in .text("handled") }) { server in
            try SocketClient(port: server.port).request("POST", target, headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                                        body: Array(form.utf8)).status
        }
        #expect(status == 400)
    }
}
