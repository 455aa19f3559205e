import Foundation
import Testing
import TestSupport
@testable import HTTPServer

/// A real HTTPS server on loopback with a certificate made by `TLSConfiguration.selfSigned`,
/// reached with curl (OpenSSL), as a browser would: it answers over TLS only, and the cookies
/// it sets there carry `Secure`.
@Suite struct TLSTests {
    static let tls = Result { try TLSConfiguration.selfSigned(names: ["localhost", "127.0.0.1"]) }

    static func withTLSServer<T>(_ body: (Server, _ certificateFile: String) throws -> T) throws -> T {
        let tls = try Self.tls.get()
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let certificateFile = directory + "/certificate.pem"
        try tls.certificatePEM.write(toFile: certificateFile, atomically: true, encoding: .utf8)
        var configuration = Server.Configuration(threadCount: 2)
        configuration.tls = tls
        var router = Router()
        router.get("/page") { _ in .text("the protected page") }
        let protection = PasswordProtection(password: "swordfish") { prompt, _ in .html("<p>sign in</p>", status: prompt.status) }
        return try withServer(configuration, handler: chain([CSRFProtection(), protection], to: router.respond)) { server in
            try body(server, certificateFile)
        }
    }

    @Test func itAnswersOverTLSWithACertificateValidForItsAddress() throws {
        try Self.withTLSServer { server, certificateFile in
            // Verified, not --insecure: the certificate names 127.0.0.1 and is its own anchor.
            let reply = try curl(["--cacert", certificateFile, "https://127.0.0.1:\(server.port)/login"])
            #expect(reply.exitCode == 0, "\(reply.errors)")
            #expect(reply.output.hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test func plainHTTPToTheTLSPortGetsNoAnswer() throws {
        try Self.withTLSServer { server, _ in
            let reply = try curl(["http://127.0.0.1:\(server.port)/login"])
            #expect(reply.exitCode != 0)
            #expect(!reply.output.contains("HTTP/1.1"))
        }
    }

    @Test func theCSRFAndSessionCookiesAreSecure() throws {
        try Self.withTLSServer { server, _ in
            let base = "https://127.0.0.1:\(server.port)"
            let login = try curl(["--insecure", base + "/login"])
            let csrf = try #require(login.setCookie(CSRFProtection.cookieName))
            #expect(csrf.hasSuffix("; Secure"), "\(csrf)")
            let token = try #require(csrf.split(separator: ";").first?.split(separator: "=").last)
            let signIn = try curl(["--insecure", "-H", "Cookie: \(CSRFProtection.cookieName)=\(token)",
                                   "--data", "_csrf=\(token)&password=swordfish", base + "/login"])
            #expect(signIn.output.hasPrefix("HTTP/1.1 303"))
            let session = try #require(signIn.setCookie("session"))
            #expect(session.contains("; SameSite=Strict; Secure"), "\(session)")
        }
    }

    @Test func theFingerprintIsTheCertificatesSHA256() throws {
        let tls = try Self.tls.get()
        let openssl = try run("/usr/bin/openssl", ["x509", "-noout", "-fingerprint", "-sha256"], input: tls.certificatePEM)
        let fingerprint = try tls.fingerprint()
        #expect(openssl.output == "sha256 Fingerprint=\(fingerprint)\n")
        let another = try TLSConfiguration.selfSigned(names: ["localhost"]).fingerprint()
        #expect(another != fingerprint, "a new key each time")
    }
}
