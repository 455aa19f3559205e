import Foundation
import Glibc
import HTTPServer

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

    /// A multipart/form-data body of `fields` and, when given, a file part named "photo".
    static func multipart(_ fields: [(String, String)], photo: (fileName: String, bytes: [UInt8])? = nil)
        -> (contentType: String, body: [UInt8]) {
        let boundary = "----test-boundary-7MA4YWxkTrZu0gW"
        var body: [UInt8] = []
        for (field, value) in fields {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field)\"\r\n\r\n\(value)\r\n".utf8)
        }
        if let photo {
            body += Array(("--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"\(photo.fileName)\"\r\n"
                + "Content-Type: image/jpeg\r\n\r\n").utf8) + photo.bytes + Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        return ("multipart/form-data; boundary=\(boundary)", body)
    }

    static func formEncode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
