import Foundation
import Synchronization
import Testing
import TestSupport
@testable import HTTPServer

@Suite struct UploadTests {
    /// What the handler saw of an upload: the file's contents while it existed, and its path.
    final class Seen: Sendable {
        let files = Mutex<[(field: String, name: String, type: String, size: Int, contents: Data, path: String)]>([])
        let fields = Mutex<[String]>([])
    }

    static func handler(_ seen: Seen) -> Handler {
        { request in
            seen.fields.withLock { $0 = request.form.all("title") }
            for file in request.files {
                let contents = try Data(contentsOf: URL(fileURLWithPath: file.path))
                seen.files.withLock {
                    $0.append((file.fieldName, file.fileName, file.contentType, file.size, contents, file.path))
                }
            }
            return .text("received \(request.files.count)")
        }
    }

    static func multipart(boundary: String, fields: [(String, String)], file: (field: String, name: String, bytes: [UInt8])) -> [UInt8] {
        var body: [UInt8] = []
        for (name, value) in fields {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        body += Array(("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.field)\"; filename=\"\(file.name)\"\r\n"
            + "Content-Type: image/jpeg\r\n\r\n").utf8)
        body += file.bytes
        body += Array("\r\n--\(boundary)--\r\n".utf8)
        return body
    }

    @Test func multipartFileArrivesIntactAsTemporaryFileThenIsDeleted() throws {
        let seen = Seen()
        let random = try #require(FileHandle(forReadingAtPath: "/dev/urandom"))
        let bytes = [UInt8](random.readData(ofLength: 5 * 1024 * 1024 + 123))
        let boundary = "----boundary7MA4YWxkTrZu0gW"
        let body = Self.multipart(boundary: boundary, fields: [("title", "Lake ✓"), ("title", "second")],
                                  file: ("photo", "lake.jpg", bytes))
        try withServer(handler: Self.handler(seen)) { server throws in
            let client = try SocketClient(port: server.port)
            let reply = try client.request("POST", "/upload", headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"], body: body)
            #expect(reply.text == "received 1")
            let file = try #require(seen.files.withLock { $0.first })
            #expect(file.field == "photo" && file.name == "lake.jpg" && file.type == "image/jpeg")
            #expect(file.size == bytes.count)
            #expect(file.contents == Data(bytes))
            #expect(seen.fields.withLock { $0 } == ["Lake ✓", "second"])
            // Deleted once the response is complete: the reply may arrive a moment before.
            let deadline = Date().addingTimeInterval(2)
            while FileManager.default.fileExists(atPath: file.path), Date() < deadline { usleep(1000) }
            #expect(!FileManager.default.fileExists(atPath: file.path))
        }
    }

    @Test func overLimitContentLengthIs413WithoutReadingTheBody() throws {
        let seen = Seen()
        let configuration = Server.Configuration(threadCount: 2, maxBodySize: 1024)
        try withServer(configuration, handler: Self.handler(seen)) { server throws in
            let client = try SocketClient(port: server.port)
            // Only the header is sent: the answer must not wait for the promised body.
            try client.send("POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\nContent-Length: 5000000\r\n\r\n")
            let reply = try client.readReply()
            #expect(reply.status == 413)
            let within = try SocketClient(port: server.port).request("POST", "/upload", body: [UInt8](repeating: 1, count: 1024))
            #expect(within.status == 200)
        }
    }

    /// A route that streams whole archives to disk takes more than `maxBodySize`, as a multipart
    /// upload only: the same size as a body held in memory is still refused.
    @Test func aMultipartBodyLimitRaisesTheLimitForFilesOnly() throws {
        let seen = Seen()
        var configuration = Server.Configuration(threadCount: 2, maxBodySize: 1024)
        configuration.multipartBodyLimit = { $0.path == "/archive" ? 64 * 1024 : nil }
        let boundary = "----boundary7MA4YWxkTrZu0gW"
        let body = Self.multipart(boundary: boundary, fields: [], file: ("archive", "big.zip", [UInt8](repeating: 7, count: 32 * 1024)))
        let multipart = ["Content-Type": "multipart/form-data; boundary=\(boundary)"]
        try withServer(configuration, handler: Self.handler(seen)) { server throws in
            #expect(try SocketClient(port: server.port).request("POST", "/archive", headers: multipart, body: body).status == 200)
            #expect(seen.files.withLock { $0.first?.size } == 32 * 1024)
            #expect(try SocketClient(port: server.port).request("POST", "/other", headers: multipart, body: body).status == 413)
            let raw = try SocketClient(port: server.port).request("POST", "/archive", headers: ["Content-Type": "application/zip"],
                                                                  body: [UInt8](repeating: 7, count: 32 * 1024))
            #expect(raw.status == 413)
            let over = Self.multipart(boundary: boundary, fields: [], file: ("archive", "huge.zip", [UInt8](repeating: 7, count: 80 * 1024)))
            #expect(try SocketClient(port: server.port).request("POST", "/archive", headers: multipart, body: over).status == 413)
        }
    }

    @Test func chunkedUploadIs411() throws {
        try withServer(handler: Self.handler(Seen())) { server throws in
            let client = try SocketClient(port: server.port)
            try client.send("POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
            #expect(try client.readReply().status == 411)
        }
    }

    /// Found by fuzzing: libmicrohttpd cannot frame such a body and waited for the connection
    /// timeout (60 s) instead of answering; the client gives up after 5 s without a reply.
    @Test(arguments: ["gzip", "identity"])
    func otherTransferEncodingsAreRefusedAtOnce(encoding: String) throws {
        try withServer(handler: Self.handler(Seen())) { server throws in
            let client = try SocketClient(port: server.port)
            try client.send("POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: \(encoding)\r\nContent-Length: 5\r\n\r\nhello")
            #expect(try client.readReply().status == 501)
        }
    }

    @Test func jsonBodyArrivesAsBytes() throws {
        let router: Handler = { request in .text("\(request.body.count) \(request.form.isEmpty)") }
        try withServer(handler: router) { server throws in
            let json = Array(#"{"name":"x"}"#.utf8)
            let reply = try SocketClient(port: server.port).request("POST", "/api", headers: ["Content-Type": "application/json"], body: json)
            #expect(reply.text == "\(json.count) true")
        }
    }
}
