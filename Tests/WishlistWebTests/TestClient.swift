import Foundation
import Glibc

/// A small HTTP/1.1 client over a raw loopback socket: plain requests, and event streams read
/// event by event, exactly as the bytes arrive.
final class TestClient {
    struct Failure: Error, CustomStringConvertible { let description: String }

    struct Reply {
        let status: Int
        let headers: [String: String]
        let body: [UInt8]

        var text: String { String(decoding: body, as: UTF8.self) }

        func json() throws -> [String: Any] {
            guard let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
                throw Failure(description: "not a JSON object: \(text)")
            }
            return object
        }
    }

    /// One server-sent event as a browser would dispatch it.
    struct Event {
        var id: String?
        var name = "message"
        var data = ""

        func json() throws -> [String: Any] {
            guard let object = try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any] else {
                throw Failure(description: "event data is not a JSON object: \(data)")
            }
            return object
        }
    }

    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// Event-stream text received but not yet parsed into events.
    private var streamText = ""
    /// Every byte of the stream body so far, to check the wire format itself.
    private(set) var streamReceived = ""
    /// The stream's response headers, names lowercased.
    private(set) var streamHeaders: [String: String] = [:]

    init(port: Int, timeoutSeconds: Int = 5) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket failed: errno \(errno)") }
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
            close(descriptor)
            throw Failure(description: "connect failed: errno \(errno)")
        }
    }

    deinit { close(descriptor) }

    /// Closes the socket now, as a browser tab going away would.
    func disconnect() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// GET `target` on a fresh connection and read the whole reply.
    static func get(_ target: String, port: Int, headers: [String: String] = [:]) throws -> Reply {
        let client = try TestClient(port: port)
        try client.sendRequest(target, headers: headers.merging(["Connection": "close"]) { $1 })
        return try client.readReply()
    }

    /// Opens an event stream; throws unless the server answers 200 `text/event-stream`.
    static func openEvents(_ target: String, port: Int, headers: [String: String] = [:],
                           timeoutSeconds: Int = 5) throws -> TestClient {
        let client = try TestClient(port: port, timeoutSeconds: timeoutSeconds)
        try client.sendRequest(target, headers: headers.merging(["Accept": "text/event-stream"]) { $1 })
        let (status, replyHeaders) = try client.readHead()
        guard status == 200, replyHeaders["content-type"] == "text/event-stream" else {
            throw Failure(description: "not an event stream: \(status) \(replyHeaders)")
        }
        client.streamHeaders = replyHeaders
        return client
    }

    func sendRequest(_ target: String, headers: [String: String]) throws {
        var head = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        let bytes = Array((head + "\r\n").utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw Failure(description: "send failed: errno \(errno)") }
            sent += count
        }
    }

    /// The next event, skipping comments (heartbeats); throws on timeout or end of stream.
    func nextEvent() throws -> Event {
        while true {
            if let end = streamText.range(of: "\n\n") {
                let block = streamText[..<end.lowerBound]
                streamText.removeSubrange(..<end.upperBound)
                var event = Event()
                var dataLines: [Substring] = []
                for line in block.split(separator: "\n", omittingEmptySubsequences: false) where !line.hasPrefix(":") {
                    let (field, value) = line.firstIndex(of: ":").map { colon in
                        (line[..<colon], line[line.index(after: colon)...].drop { $0 == " " })
                    } ?? (line, "")
                    switch field {
                    case "id": event.id = String(value)
                    case "event": event.name = String(value)
                    case "data": dataLines.append(value)
                    default: break
                    }
                }
                guard !dataLines.isEmpty || event.name != "message" else { continue }
                event.data = dataLines.joined(separator: "\n")
                return event
            }
            guard let chunk = try readChunk() else { throw Failure(description: "stream ended after: \(streamReceived)") }
            let text = String(decoding: chunk, as: UTF8.self)
            streamText += text
            streamReceived += text
        }
    }

    /// The next event named `name`, skipping others.
    func nextEvent(named name: String) throws -> Event {
        while true {
            let event = try nextEvent()
            if event.name == name { return event }
        }
    }

    // MARK: Reading HTTP

    private func readHead() throws -> (Int, [String: String]) {
        let head = String(decoding: try readUntil(Array("\r\n\r\n".utf8)), as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw Failure(description: "bad status line: \(lines[0])") }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return (status, headers)
    }

    private func readReply() throws -> Reply {
        let (status, headers) = try readHead()
        if let length = headers["content-length"].flatMap(Int.init) {
            return Reply(status: status, headers: headers, body: try readExactly(length))
        }
        var body: [UInt8] = []
        while let chunk = try readChunk() { body += chunk }
        return Reply(status: status, headers: headers, body: body)
    }

    private func readChunk() throws -> [UInt8]? {
        let sizeLine = String(decoding: try readUntil(Array("\r\n".utf8)), as: UTF8.self)
        guard let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) else {
            throw Failure(description: "bad chunk size line: \(sizeLine)")
        }
        guard size > 0 else { return nil }
        let chunk = try readExactly(size)
        _ = try readExactly(2)
        return chunk
    }

    private func readUntil(_ delimiter: [UInt8]) throws -> [UInt8] {
        var searchFrom = 0
        while true {
            if buffer.count >= delimiter.count {
                for start in searchFrom...(buffer.count - delimiter.count)
                where buffer[start..<(start + delimiter.count)].elementsEqual(delimiter) {
                    defer { buffer.removeFirst(start + delimiter.count) }
                    return Array(buffer[..<start])
                }
                searchFrom = buffer.count - delimiter.count + 1
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
        var chunk = [UInt8](repeating: 0, count: 16384)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count < 0 { throw Failure(description: errno == EAGAIN ? "timed out waiting for the server" : "recv failed: errno \(errno)") }
        if count == 0 { throw Failure(description: "connection closed by the server") }
        buffer += chunk[..<count]
    }
}
