import Foundation
import Glibc

/// An HTTP/1.1 client over a raw loopback socket, so a test controls every byte sent (Host,
/// Origin, malformed heads) and reads replies and event streams exactly as they arrive. For
/// what needs a real server; pages and the API are tested in process (`Browser`).
public final class SocketClient {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// Sent as `Host` by `request`.
    public let host: String
    /// Event-stream text received but not yet parsed into events.
    var pendingEventText = ""
    /// Every byte of an event stream's body so far, to check the wire format itself.
    public internal(set) var streamReceived = ""
    /// The status and headers an event stream opened with (`openEvents`).
    public internal(set) var streamHead: Reply?

    public init(port: Int, host: String = "127.0.0.1", timeoutSeconds: Int = 5) throws {
        self.host = host
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw TestFailure("socket failed: errno \(errno)") }
        var time = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(descriptor)
            throw TestFailure("connect failed: errno \(code)")
        }
        // Owned (closed by `deinit`) only once connected: `deinit` also runs when an initializer
        // throws after every property is set, and would close the number a second time.
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Closes the socket now, as a browser tab going away would.
    public func disconnect() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    // MARK: Sending

    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    public func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw TestFailure("send failed: errno \(errno)") }
            sent += count
        }
    }

    /// Sends a request with `Host` (and `Content-Length` for a body or a POST), as far as the
    /// server reads it, and reads the reply.
    public func request(_ method: String, _ target: String, headers: [String: String] = [:], body: [UInt8] = [],
                        expectBody: Bool = true) throws -> Reply {
        var all = ["Host": host]
        all.merge(headers) { $1 }
        if !body.isEmpty || method != "GET" { all["Content-Length"] = all["Content-Length"] ?? "\(body.count)" }
        let head = "\(method) \(target) HTTP/1.1\r\n" + all.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)\r\n" }.joined()
        return try exchange(Array((head + "\r\n").utf8) + body, expectBody: expectBody)
    }

    /// Sends `bytes` as far as the server reads them (it may refuse before reading everything),
    /// then reads the reply.
    public func exchange(_ bytes: [UInt8], expectBody: Bool = true) throws -> Reply {
        try? send(bytes)
        return try readReply(expectBody: expectBody)
    }

    // MARK: Reading

    public func readReply(expectBody: Bool = true) throws -> Reply {
        let lines = String(decoding: try readUntil(Array("\r\n\r\n".utf8)), as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw TestFailure("bad status line: \(lines[0])") }
        let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let head = Reply(status: status, headers: headers, body: [])
        guard expectBody, status != 304, status != 204 else { return head }
        if let length = head.header("Content-Length").flatMap(Int.init) {
            return Reply(status: status, headers: headers, body: try readExactly(length))
        }
        if head.header("Transfer-Encoding")?.lowercased() == "chunked" {
            var body: [UInt8] = []
            while let chunk = try readChunk() { body += chunk }
            return Reply(status: status, headers: headers, body: body)
        }
        return Reply(status: status, headers: headers, body: try readToEnd())
    }

    /// The next chunk of a chunked body; nil after the last one.
    public func readChunk() throws -> [UInt8]? {
        let sizeLine = String(decoding: try readUntil(Array("\r\n".utf8)), as: UTF8.self)
        guard let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) else {
            throw TestFailure("bad chunk size: \(sizeLine)")
        }
        if size == 0 {
            _ = try readUntil(Array("\r\n".utf8))
            return nil
        }
        defer { _ = try? readExactly(2) }
        return try readExactly(size)
    }

    /// The next bytes of an event stream's body, its chunks decoded if it is chunked; nil at its end.
    public func readStreamBytes() throws -> [UInt8]? {
        if streamHead?.header("Transfer-Encoding")?.lowercased() == "chunked" { return try readChunk() }
        if buffer.isEmpty, try !fill() { return nil }
        defer { buffer = [] }
        return buffer
    }

    /// Reads until `delimiter`, returning what came before it.
    public func readUntil(_ delimiter: [UInt8]) throws -> [UInt8] {
        while true {
            if let range = buffer.firstRange(of: delimiter) {
                defer { buffer.removeFirst(range.upperBound) }
                return Array(buffer[..<range.lowerBound])
            }
            guard try fill() else { throw TestFailure("connection closed by the server") }
        }
    }

    public func readExactly(_ count: Int) throws -> [UInt8] {
        while buffer.count < count {
            guard try fill() else { throw TestFailure("connection closed by the server") }
        }
        defer { buffer.removeFirst(count) }
        return Array(buffer[..<count])
    }

    public func readToEnd() throws -> [UInt8] {
        while try fill() {}
        defer { buffer = [] }
        return buffer
    }

    /// True when the server has closed the connection (reads end of file).
    public func isClosedByServer() -> Bool {
        (try? fill()) == false
    }

    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count < 0 { throw TestFailure(errno == EAGAIN ? "timed out waiting for the server" : "recv failed: errno \(errno)") }
        buffer += chunk[..<count]
        return count > 0
    }
}

extension SocketClient {
    /// One request on its own connection (`Connection: close`).
    public static func send(_ method: String, _ target: String, port: Int, host: String = "127.0.0.1",
                            headers: [String: String] = [:], body: [UInt8] = []) throws -> Reply {
        try SocketClient(port: port, host: host).request(method, target, headers: headers.merging(["Connection": "close"]) { $1 }, body: body)
    }

    public static func get(_ target: String, port: Int, host: String = "127.0.0.1", headers: [String: String] = [:]) throws -> Reply {
        try send("GET", target, port: port, host: host, headers: headers)
    }

    /// `fields` as an `application/x-www-form-urlencoded` body.
    public static func formEncode(_ fields: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        func encode(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "" }
        return fields.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
    }

    /// A multipart/form-data body of `fields` and, when given, a file part named "photo".
    public static func multipart(_ fields: [(String, String)], photo: (fileName: String, bytes: [UInt8])? = nil)
        -> (contentType: String, body: [UInt8]) {
        multipart(fields, file: photo.map { (field: "photo", fileName: $0.fileName, contentType: "image/jpeg", bytes: $0.bytes) })
    }

    /// A multipart/form-data body of `fields` and, when given, one file part.
    public static func multipart(_ fields: [(String, String)], file: (field: String, fileName: String, contentType: String, bytes: [UInt8])?)
        -> (contentType: String, body: [UInt8]) {
        multipart(fields, files: file.map { [$0] } ?? [])
    }

    /// A multipart/form-data body of `fields` and the file parts `files`.
    public static func multipart(_ fields: [(String, String)], files: [(field: String, fileName: String, contentType: String, bytes: [UInt8])])
        -> (contentType: String, body: [UInt8]) {
        let boundary = "----test-boundary-7MA4YWxkTrZu0gW"
        var body: [UInt8] = []
        for (field, value) in fields {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field)\"\r\n\r\n\(value)\r\n".utf8)
        }
        for file in files {
            body += Array(("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.field)\"; filename=\"\(file.fileName)\"\r\n"
                + "Content-Type: \(file.contentType)\r\n\r\n").utf8) + file.bytes + Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        return ("multipart/form-data; boundary=\(boundary)", body)
    }
}
