import Foundation
import HTTPServer
import Testing
import TestSupport

/// `wishlist serve` with TLS, as a process on loopback (`--tls on` stands for an address beyond
/// loopback, where `auto` turns it on): it makes a certificate once, keeps it in the data folder
/// for the owner only, prints its fingerprint and serves HTTPS with it.
@Suite struct ServeTLSTests {
    typealias ServeProcess = ServePasswordTests.ServeProcess

    @Test func withTLSOnItMakesAndKeepsACertificateAndServesHTTPS() throws {
        let serve = try ServeProcess(arguments: ["--host", "127.0.0.1", "--tls", "on"],
                                     environment: ["WISHLIST_PASSWORD": "open sesame"])
        let port = try serve.readyPort(scheme: "https")
        let certificateFile = serve.folder + "/data/tls-certificate.pem"
        for file in [certificateFile, serve.folder + "/data/tls-key.pem"] {
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
            #expect(mode == 0o600, "\(file)")
        }
        let made = try TLSConfiguration(certificateFile: certificateFile, keyFile: serve.folder + "/data/tls-key.pem")
        let output = ServeProcess.contents(of: serve.outputPath)
        #expect(output.contains("TLS certificate SHA-256 fingerprint: \(try made.fingerprint())\n"))

        let login = try curl(["--cacert", certificateFile, "https://127.0.0.1:\(port)/login"])
        #expect(login.exitCode == 0, "\(login.errors)")
        #expect(login.output.hasPrefix("HTTP/1.1 200"))
        #expect(login.setCookie(CSRFProtection.cookieName)?.hasSuffix("; Secure") == true)
        #expect(try curl(["http://127.0.0.1:\(port)/login"]).exitCode != 0, "no plain HTTP on the TLS port")
    }

    @Test func onLoopbackAutoStaysPlainHTTP() throws {
        let serve = try ServeProcess(arguments: ["--host", "127.0.0.1"], environment: ["WISHLIST_PASSWORD": "open sesame"])
        _ = try serve.readyPort(scheme: "http")
        #expect(!FileManager.default.fileExists(atPath: serve.folder + "/data/tls-certificate.pem"))
    }

    @Test func theOwnersCertificateIsServedAsGiven() throws {
        let own = try TLSConfiguration.selfSigned(names: ["127.0.0.1"])
        let folder = NSTemporaryDirectory() + "wishlist-own-tls-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try own.certificatePEM.write(toFile: folder + "/cert.pem", atomically: true, encoding: .utf8)
        try own.keyPEM.write(toFile: folder + "/key.pem", atomically: true, encoding: .utf8)
        let serve = try ServeProcess(arguments: ["--host", "127.0.0.1", "--tls-cert", folder + "/cert.pem",
                                                 "--tls-key", folder + "/key.pem"], environment: [:])
        let port = try serve.readyPort(scheme: "https")
        #expect(ServeProcess.contents(of: serve.outputPath).contains(try own.fingerprint()))
        let page = try curl(["--cacert", folder + "/cert.pem", "https://127.0.0.1:\(port)/"])
        #expect(page.exitCode == 0 && page.output.hasPrefix("HTTP/1.1 200"), "\(page.errors)")
    }

    /// `wishlist feed create` prints the address `serve` with the same options answers at: over
    /// HTTPS and behind a password, a calendar app reads the feed with that address alone.
    @Test func aFeedMadeOnTheCommandLineIsReadOverHTTPSWithAPasswordSet() throws {
        let serve = try ServeProcess(arguments: ["--host", "127.0.0.1", "--tls", "on"],
                                     environment: ["WISHLIST_PASSWORD": "open sesame"])
        let port = try serve.readyPort(scheme: "https")
        let made = try run(ServePasswordTests.executable.path, ["feed", "create", "phone", "--tls", "on", "--port", String(port),
                                                                "--data-dir", serve.folder + "/data"])
        #expect(made.exitCode == 0, "\(made.errors)")
        let address = try #require(made.output.split(separator: "\n").first { $0.hasPrefix("https://127.0.0.1:\(port)/calendar/wlc_") })
        let feed = try curl(["--cacert", serve.folder + "/data/tls-certificate.pem", String(address)])
        #expect(feed.output.hasPrefix("HTTP/1.1 200"), "\(feed.errors)")
        #expect(feed.output.contains("BEGIN:VEVENT") && feed.output.contains("URL:https://127.0.0.1:\(port)/trips/"))
        let page = try curl(["--cacert", serve.folder + "/data/tls-certificate.pem", "https://127.0.0.1:\(port)/data"])
        #expect(page.output.hasPrefix("HTTP/1.1 401") || page.output.hasPrefix("HTTP/1.1 303"), "the rest still needs the password")
    }
}
