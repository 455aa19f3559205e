import Foundation
import Glibc
import HTTPServer

/// One input: a request (line, headers, blank line, body) sent on a new connection to a real
/// server on loopback, with the middleware the app uses. This reaches path decoding, cookies,
/// url-encoded and multipart bodies (the multipart parser is only reachable through a live
/// connection), the body limits, the middleware and routing.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPServer(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let reply = fixture.exchange(completeRequest(Array(UnsafeBufferPointer(start: data, count: size))))
    guard !reply.isEmpty else { return 0 }  // a connection dropped without an answer is allowed
    let head = String(decoding: reply.prefix(12), as: UTF8.self)
    guard head.hasPrefix("HTTP/1."), let status = Int(head.dropFirst(9).prefix(3)) else {
        fatalError("not an HTTP response: \(head.debugDescription)")
    }
    // The handlers below never throw: a 5xx other than "method not implemented" or "HTTP
    // version not supported" means the server itself mishandled the input.
    precondition(status < 500 || status == 501 || status == 505, "the server answered \(status)")
    precondition(reply.firstRange(of: Array(ServerFixture.secret.utf8)) == nil, "a file outside the static root was served")
    return 0
}

private let fixture = ServerFixture()

/// The input made into one request the server can tell is complete: the head ends with a blank
/// line, the body's length is declared and the connection closes after the answer.
/// (libmicrohttpd waits for the rest of a truncated request, or for the next request on a
/// kept-alive connection, until the connection times out even after the client half-closes:
/// inputs would take seconds each and a silent server could not be told from a hung one.)
private func completeRequest(_ input: [UInt8]) -> [UInt8] {
    let separator = Array("\r\n\r\n".utf8)
    let head: ArraySlice<UInt8>, body: ArraySlice<UInt8>
    if let end = input.firstRange(of: separator) {
        (head, body) = (input[..<end.lowerBound], input[end.upperBound...])
    } else {
        (head, body) = (input[...], [])
    }
    // Lines end at LF (libmicrohttpd accepts a bare LF too); each is sent with CRLF. A
    // Transfer-Encoding stays: the server refuses any at once.
    let framingHeaders = ["content-length:", "connection:"]
    let lines = head.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
        line.last == UInt8(ascii: "\r") ? line.dropLast() : line
    }.filter { line in
        let start = String(decoding: line.prefix(20), as: UTF8.self).lowercased()
        return !framingHeaders.contains { start.hasPrefix($0) }
    }
    var request = Array(lines.joined(separator: Array("\r\n".utf8)))
    request += Array("\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8)
    request += body
    return request
}

private final class ServerFixture: Sendable {
    /// The content of a file beside (outside) the static root: no response may contain it.
    static let secret = "outside-the-static-root"
    let server: Server

    init() {
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("wishlist-fuzz-http-\(getpid())")
        let publicFolder = directory.appendingPathComponent("public")
        let uploads = directory.appendingPathComponent("uploads")
        do {
            for folder in [publicFolder, uploads] {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
            try Data("hello".utf8).write(to: publicFolder.appendingPathComponent("hello.txt"))
            try Data(Self.secret.utf8).write(to: directory.appendingPathComponent("secret.txt"))
            let responder = chain([
                HostValidation(),
                SecurityHeaders(),
                try StaticFiles(root: publicFolder.path, prefix: "/static/"),
                CSRFProtection(),
            ], to: Self.router().respond(to:))
            let configuration = Server.Configuration(port: 0, threadCount: 2, maxBodySize: 256 * 1024,
                                                     connectionTimeout: 5, uploadDirectory: uploads.path)
            server = Server(configuration: configuration, responder: responder)
            try server.start()
        } catch {
            fatalError("cannot start the fuzzing server: \(error)")
        }
    }

    /// Routes with parameters and bodies; answers describe what was parsed by counts only, so
    /// that no input is echoed back (it could contain the secret by chance).
    private static func router() -> Router {
        var router = Router()
        let describe: Handler = { request in
            let fileBytes = request.files.reduce(0) { total, file in
                total + ((try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? -1)
            }
            let uploadedSizes = request.files.reduce(0) { $0 + $1.size }
            precondition(fileBytes == uploadedSizes, "an uploaded file's size differs from its temporary file")
            return .text("""
                path \(request.path.utf8.count) parameters \(request.parameters.count) query \(request.query.pairs.count) \
                cookies \(request.cookies.count) form \(request.form.pairs.count) files \(request.files.count) \
                body \(request.body.count)
                """)
        }
        router.get("/", describe)
        router.get("/items/:id", describe)
        router.post("/items/:id", describe)
        router.put("/items/:id", describe)
        router.delete("/items/:id", describe)
        router.post("/upload", describe)
        return router
    }

    /// Sends the bytes on a new connection, half-closes it and reads until the server closes.
    /// Calls interrupted by a signal (libFuzzer's timer) are retried.
    func exchange(_ bytes: [UInt8]) -> [UInt8] {
        let socketDescriptor = connectToServer()
        defer { close(socketDescriptor) }
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                send(socketDescriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count < 0 && errno == EINTR { continue }
            // The server may answer and close early (e.g. 413): a failed send ends the input.
            if count <= 0 { break }
            sent += count
        }
        shutdown(socketDescriptor, Int32(SHUT_WR))
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = recv(socketDescriptor, &buffer, buffer.count, 0)
            if count > 0 {
                reply += buffer[..<count]
                continue
            }
            if count < 0 && errno == EINTR { continue }
            precondition(count == 0 || errno != EAGAIN, "the server did not finish answering within 5 s")
            return reply
        }
    }

    /// A connected socket with a 5 s receive timeout; a connect interrupted by a signal is
    /// retried on a new socket.
    private func connectToServer() -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(server.port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        while true {
            let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            precondition(socketDescriptor >= 0, "socket failed")
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(socketDescriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            if connected == 0 { return socketDescriptor }
            let failure = errno
            close(socketDescriptor)
            precondition(failure == EINTR, "cannot connect to the server: errno \(failure)")
        }
    }
}
