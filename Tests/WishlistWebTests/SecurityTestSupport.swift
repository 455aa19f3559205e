import Foundation
import Glibc
import HTTPServer
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// The whole app on an ephemeral port, as `wishlist serve` builds it, over a fresh data folder.
final class SecurityFixture {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    let directory: String
    let store: WishlistStore
    let app: WishlistApp
    let server: Server
    var port: Int { server.port }

    init(maxPhotoBytes: Int = 1024 * 1024) throws {
        directory = NSTemporaryDirectory() + "wishlist-security-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        store = try WishlistStore(path: directory + "/wishlist.sqlite", photoLimits: PhotoLimits(maxBytes: maxPhotoBytes))
        var configuration = WishlistApp.Configuration(resourcesDirectory: Self.packageRoot)
        configuration.maxPhotoBytes = maxPhotoBytes
        app = try WishlistApp(store: store, configuration: configuration)
        var serverConfiguration = Server.Configuration(threadCount: 2)
        serverConfiguration.maxBodySize = maxPhotoBytes + 1024 * 1024
        serverConfiguration.uploadDirectory = directory
        serverConfiguration.errorPage = { [app] status, message, request in
            app.errorPage(status: status, message: message, request: request)
        }
        server = Server(configuration: serverConfiguration, responder: try app.makeResponder())
        try server.start()
    }

    deinit {
        server.stop()
        app.shutdown()
        store.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Every route the router serves, each with a concrete address (parameters filled with
    /// records that exist, the query a route needs to do real work).
    var routes: [(method: HTTPMethod, pattern: String, target: String)] {
        app.makeRouter().routes.map { route in
            (route.method, route.pattern, Self.target(for: route.pattern))
        }
    }

    static func target(for pattern: String) -> String {
        let path = pattern.split(separator: "/").map { segment in
            segment.hasPrefix(":") ? (sampleParameters[String(segment.dropFirst())] ?? "1") : String(segment)
        }.joined(separator: "/")
        return "/" + path + (sampleQueries[pattern].map { "?" + $0 } ?? "")
    }

    static let sampleParameters = ["collection": TripCollection.summerVibes.rawValue]
    static let sampleQueries = ["/events": "topics=\(LiveTopicName.achievedGoals)", "/search": "q=a", "/api/search": "q=a"]

    /// What a change anywhere would move: the newest history token (every write transaction
    /// records one) and the JSON of trips, goals and a trip's activities.
    func snapshot() throws -> String {
        let token = try store.database.latestHistoryToken()
        let bodies = try ["/api/trips?limit=500", "/api/goals", "/api/trips/1"].map { try WebClient(port: port).get($0).text }
        return "\(token)\n" + bodies.joined(separator: "\n")
    }

    /// A fresh CSRF token with its cookie, as a page visit hands it out.
    func csrfToken() throws -> String {
        let reply = try WebClient(port: port).get("/")
        let cookie = try #require(reply.cookie(CSRFProtection.cookieName))
        return cookie
    }
}

/// One request per connection over a raw socket, so a test controls every header (Host,
/// Origin, Sec-Fetch-Site) and every byte.
struct WebClient {
    struct Reply {
        let status: Int
        let headers: [(name: String, value: String)]
        let body: [UInt8]

        var text: String { String(decoding: body, as: UTF8.self) }

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        func cookie(_ name: String) -> String? {
            headers.lazy.filter { $0.name.lowercased() == "set-cookie" }
                .compactMap { header -> String? in
                    let pair = header.value.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
                    return pair.count == 2 && pair[0] == name ? String(pair[1]) : nil
                }.first
        }
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    let port: Int
    var host = "127.0.0.1"

    init(port: Int, host: String = "127.0.0.1") {
        self.port = port
        self.host = host
    }

    func get(_ target: String, headers: [String: String] = [:]) throws -> Reply {
        try send("GET", target, headers: headers)
    }

    /// A form post carrying `token` as both cookie and field (nil: neither).
    func post(_ target: String, form: [(String, String)], token: String?, headers: [String: String] = [:]) throws -> Reply {
        var fields = form
        var headers = headers
        if let token {
            fields.append(("_csrf", token))
            headers["Cookie"] = [headers["Cookie"], "\(CSRFProtection.cookieName)=\(token)"].compactMap { $0 }.joined(separator: "; ")
        }
        let body = fields.map { "\(Self.formEncode($0.0))=\(Self.formEncode($0.1))" }.joined(separator: "&")
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        return try send("POST", target, headers: headers, body: Array(body.utf8))
    }

    func send(_ method: String, _ target: String, headers: [String: String] = [:], body: [UInt8] = []) throws -> Reply {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method != "GET" { head += "Content-Length: \(body.count)\r\n" }
        return try exchange(Array((head + "\r\n").utf8) + body, readBody: true)
    }

    /// Sends raw bytes; reads the reply's head, and its body unless `readBody` is false (event streams).
    func exchange(_ bytes: [UInt8], readBody: Bool) throws -> Reply {
        let socket = try Self.connect(port: port)
        defer { close(socket) }
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { break }  // the server may refuse before reading everything
            sent += count
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let separator = Array("\r\n\r\n".utf8)
        while true {
            if !readBody, received.firstRange(of: separator) != nil { break }
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        return try Self.parse(received)
    }

    static func parse(_ bytes: [UInt8]) throws -> Reply {
        guard let end = bytes.firstRange(of: Array("\r\n\r\n".utf8)) else {
            throw Failure(description: "no reply head in \(bytes.count) bytes")
        }
        let lines = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw Failure(description: "bad status line \(lines[0])") }
        let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return Reply(status: status, headers: headers, body: Array(bytes[end.upperBound...]))
    }

    static func connect(port: Int) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(descriptor)
            throw Failure(description: "connect failed: \(errno)")
        }
        return descriptor
    }

    static func formEncode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}

/// An open event stream over a raw socket: reads the chunked body as it arrives.
final class EventStreamReader {
    private let socket: Int32
    private var buffer: [UInt8] = []
    private(set) var text = ""

    init(port: Int, target: String) throws {
        socket = try WebClient.connect(port: port)
        let head = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
        _ = head.utf8CString.withUnsafeBytes { send(socket, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL)) }
        let status = try String(decoding: readUntil("\r\n\r\n"), as: UTF8.self)
        guard status.hasPrefix("HTTP/1.1 200"), status.lowercased().contains("transfer-encoding: chunked") else {
            throw WebClient.Failure(description: "not an event stream: \(status)")
        }
    }

    deinit { close(socket) }

    /// Reads chunks until the stream's text contains `marker` (within the socket's 5 s timeout).
    func read(until marker: String) throws -> String {
        while !text.contains(marker) {
            let sizeLine = String(decoding: try readUntil("\r\n"), as: UTF8.self)
            guard let size = Int(sizeLine, radix: 16), size > 0 else { throw WebClient.Failure(description: "stream ended: \(text)") }
            text += String(decoding: try readExactly(size), as: UTF8.self)
            _ = try readExactly(2)
        }
        return text
    }

    private func readUntil(_ delimiter: String) throws -> [UInt8] {
        let pattern = Array(delimiter.utf8)
        while true {
            if let range = buffer.firstRange(of: pattern) {
                defer { buffer.removeSubrange(..<range.upperBound) }
                return Array(buffer[..<range.lowerBound])
            }
            try fill()
        }
    }

    private func readExactly(_ count: Int) throws -> [UInt8] {
        while buffer.count < count { try fill() }
        defer { buffer.removeFirst(count) }
        return Array(buffer[..<count])
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw WebClient.Failure(description: "connection closed or timed out") }
        buffer += chunk[..<count]
    }
}
