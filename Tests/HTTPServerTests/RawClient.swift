import Foundation
import Glibc

/// A minimal HTTP/1.1 client over a raw socket, so tests control every byte sent.
final class RawClient {
    struct Reply {
        let status: Int
        let headers: [(String, String)]
        let body: [UInt8]

        func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    let descriptor: Int32
    private var buffer: [UInt8] = []

    init(port: Int, timeout: Int = 5) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var time = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(descriptor)
            throw Failure(description: "connect failed: \(errno)")
        }
    }

    deinit { close(descriptor) }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let result = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard result > 0 else { throw Failure(description: "send failed: \(errno)") }
            sent += result
        }
    }

    /// Sends a request with the usual headers and reads the reply.
    func request(_ method: String, _ target: String, headers: [String: String] = [:], body: [UInt8] = [],
                 expectBody: Bool = true) throws -> Reply {
        var head = "\(method) \(target) HTTP/1.1\r\n"
        var all = ["Host": "127.0.0.1"]
        all.merge(headers) { $1 }
        if !body.isEmpty || method == "POST" { all["Content-Length"] = all["Content-Length"] ?? "\(body.count)" }
        for (name, value) in all.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        try send(Array(head.utf8) + body)
        return try readReply(expectBody: expectBody)
    }

    func readReply(expectBody: Bool = true) throws -> Reply {
        let head = try readUntil(Array("\r\n\r\n".utf8))
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw Failure(description: "bad status line: \(lines[0])")
        }
        let headers = lines.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let reply = Reply(status: status, headers: headers, body: [])
        guard expectBody, status != 304, status != 204 else { return reply }
        if let length = reply.header("Content-Length").flatMap(Int.init) {
            return Reply(status: status, headers: headers, body: try readExactly(length))
        }
        if reply.header("Transfer-Encoding")?.lowercased() == "chunked" {
            var body: [UInt8] = []
            while let chunk = try readChunk() { body += chunk }
            return Reply(status: status, headers: headers, body: body)
        }
        return Reply(status: status, headers: headers, body: try readToEnd())
    }

    /// The next chunk of a chunked body; nil after the last one.
    func readChunk() throws -> [UInt8]? {
        let sizeLine = String(decoding: try readUntil(Array("\r\n".utf8)), as: UTF8.self)
        guard let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) else {
            throw Failure(description: "bad chunk size: \(sizeLine)")
        }
        if size == 0 {
            _ = try readUntil(Array("\r\n".utf8))
            return nil
        }
        defer { _ = try? readExactly(2) }
        return try readExactly(size)
    }

    /// Reads event-stream chunks until the text received contains `marker`; returns all of it.
    func readEvents(until marker: String) throws -> String {
        var text = ""
        while !text.contains(marker) {
            guard let chunk = try readChunk() else { throw Failure(description: "stream ended: \(text)") }
            text += String(decoding: chunk, as: UTF8.self)
        }
        return text
    }

    /// Reads until `delimiter`, returning what came before it.
    func readUntil(_ delimiter: [UInt8]) throws -> [UInt8] {
        while true {
            if let range = firstRange(of: delimiter) {
                let result = Array(buffer[..<range.lowerBound])
                buffer.removeFirst(range.upperBound)
                return result
            }
            guard try fill() else { throw Failure(description: "connection closed") }
        }
    }

    func readExactly(_ count: Int) throws -> [UInt8] {
        while buffer.count < count {
            guard try fill() else { throw Failure(description: "connection closed") }
        }
        defer { buffer.removeFirst(count) }
        return Array(buffer[..<count])
    }

    func readToEnd() throws -> [UInt8] {
        while try fill() {}
        defer { buffer = [] }
        return buffer
    }

    /// True when the server has closed the connection (reads end of file).
    func isClosedByServer() -> Bool {
        (try? fill()) == false
    }

    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count < 0 { throw Failure(description: "recv failed: \(errno)") }
        buffer += chunk[..<count]
        return count > 0
    }

    private func firstRange(of delimiter: [UInt8]) -> Range<Int>? {
        guard buffer.count >= delimiter.count else { return nil }
        for start in 0...(buffer.count - delimiter.count) where buffer[start] == delimiter[0] {
            if Array(buffer[start..<(start + delimiter.count)]) == delimiter { return start..<(start + delimiter.count) }
        }
        return nil
    }
}
