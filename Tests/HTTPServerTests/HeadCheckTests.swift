import Foundation
import Glibc
import Synchronization
import Testing
import TestSupport
@testable import HTTPServer

/// The server decides what the head can decide before it reads the body: a forged upload is
/// refused before it is sent, and a form whose file comes before its token stores nothing.
@Suite struct HeadCheckTests {
    static let token = String(repeating: "ab", count: 32)
    static let boundary = "----head-check-boundary"
    static let refusal = "This form has expired or came from another site. Reload the page and try again."

    /// A server with the head checks of the app, uploads into a folder of its own whose
    /// modification time is set far in the past: any file created (and deleted) there moves it.
    final class Fixture {
        let uploads: String
        let handled = MiddlewareTests.Counter()
        let server: Server
        static let untouched = timespec(tv_sec: 946_684_800, tv_nsec: 0)  // 2000-01-01

        init() throws {
            uploads = try makeTemporaryDirectory()
            var configuration = Server.Configuration(threadCount: 2, uploadDirectory: uploads, errorPage: { status, message, request in
                SecurityHeaders().applied(to: Server.plainErrorPage(status, message, request))
            })
            configuration.headChecks = [HostValidation(), CSRFProtection()]
            var router = Router()
            let handled = handled
            router.post("/upload") { request in
                handled.value.add(1, ordering: .relaxed)
                return .text("received \(request.files.count)")
            }
            server = Server(configuration: configuration, responder: chain([SecurityHeaders(), CSRFProtection()], to: router.respond))
            try server.start()
            var times = [Self.untouched, Self.untouched]
            #expect(utimensat(AT_FDCWD, uploads, &times, 0) == 0)
        }

        deinit {
            server.stop()
            try? FileManager.default.removeItem(atPath: uploads)
        }

        /// No file was ever created in the upload folder (nor is one left).
        var uploadFolderUntouched: Bool {
            var status = stat()
            guard stat(uploads, &status) == 0 else { return false }
            return status.st_mtim.tv_sec == Self.untouched.tv_sec
                && (try? FileManager.default.contentsOfDirectory(atPath: uploads))?.isEmpty == true
        }

        func post(_ body: [UInt8], headers: [String: String] = [:]) throws -> Reply {
            try SocketClient(port: server.port).request("POST", "/upload", headers: [
                "Cookie": "\(CSRFProtection.cookieName)=\(HeadCheckTests.token)",
                "Content-Type": "multipart/form-data; boundary=\(HeadCheckTests.boundary)",
            ].merging(headers) { $1 }, body: body)
        }
    }

    static func field(_ name: String, _ value: String) -> [UInt8] {
        Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
    }

    static func file(_ name: String, bytes: Int) -> [UInt8] {
        Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(name).jpg\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
            + [UInt8](repeating: 0xFF, count: bytes) + Array("\r\n".utf8)
    }

    static let end = Array("--\(boundary)--\r\n".utf8)

    @Test func aForgedUploadIsRefusedFromItsHeadBeforeItsBodyIsSent() throws {
        let fixture = try Fixture()
        // 100,000 file parts promised; only the head is sent, then the answer is read.
        let promised = 100_000 * Self.file("part", bytes: 10).count
        let forgeries: [(headers: [String: String], status: Int)] = [
            (["Sec-Fetch-Site": "cross-site"], 403), (["Sec-Fetch-Site": "same-site"], 403),
            (["Origin": "http://evil.example"], 403), (["Origin": "null"], 403),
            (["Cookie": ""], 403), (["X-CSRF-Token": String(repeating: "0", count: 64)], 403),
            (["Host": "evil.example"], 421),
        ]
        for forgery in forgeries {
            let client = try SocketClient(port: fixture.server.port)
            let reply = try client.request("POST", "/upload", headers: [
                "Cookie": "\(CSRFProtection.cookieName)=\(Self.token)", "Content-Length": "\(promised)",
                "Content-Type": "multipart/form-data; boundary=\(Self.boundary)",
            ].merging(forgery.headers) { $1 })
            #expect(reply.status == forgery.status, "\(forgery.headers)")
            if forgery.status == 403 { #expect(reply.text.contains(Self.refusal)) }
            for name in ["Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "X-Frame-Options"] {
                #expect(reply.headers.filter { $0.name.lowercased() == name.lowercased() }.count == 1, "\(name)")
            }
            // The server does not wait for the body it refused.
            #expect(client.isClosedByServer(), "\(forgery.headers)")
        }
        #expect(fixture.handled.value.load(ordering: .relaxed) == 0)
        #expect(fixture.uploadFolderUntouched)
    }

    @Test func aFilePartBeforeTheTokenStoresNothing() throws {
        let fixture = try Fixture()
        let file = Self.file("photo", bytes: 256 * 1024)
        let bodies = [
            file + Self.field(CSRFProtection.fieldName, Self.token) + Self.end,
            file + Self.end,
            Self.field(CSRFProtection.fieldName, String(repeating: "0", count: 64)) + file + Self.end,
            Self.field(CSRFProtection.fieldName, Self.token + "0") + file + Self.end,
            Self.field("note", String(repeating: "x", count: MultipartReceiver.maxBytesBeforeRequiredField + 1))
                + Self.field(CSRFProtection.fieldName, Self.token) + file + Self.end,
        ]
        for (index, body) in bodies.enumerated() {
            let reply = try fixture.post(body)
            #expect(reply.status == 403 && reply.text.contains(Self.refusal), "body \(index)")
        }
        #expect(fixture.handled.value.load(ordering: .relaxed) == 0)
        #expect(fixture.uploadFolderUntouched)
    }

    @Test func fieldsBeforeTheTokenAndTheTokenInTheHeaderStillUpload() throws {
        let fixture = try Fixture()
        let file = Self.file("photo", bytes: 100_000)
        // A submit button placed before its form sends its value before the form's token.
        let tokenAfterAField = Self.field("return", "/trips/1") + Self.field(CSRFProtection.fieldName, Self.token) + file + Self.end
        #expect(try fixture.post(tokenAfterAField).text == "received 1")
        #expect(try fixture.post(file + Self.end, headers: [CSRFProtection.headerName: Self.token]).text == "received 1")
        #expect(fixture.handled.value.load(ordering: .relaxed) == 2)
    }
}
