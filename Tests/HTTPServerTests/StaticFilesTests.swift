import Foundation
import Testing
import TestSupport
@testable import HTTPServer

@Suite struct StaticFilesTests {
    /// `<dir>/public/css/app.css`, a secret beside the root, and a symlink pointing at it.
    static func makeSite() throws -> (directory: String, handler: Handler, files: StaticFiles) {
        let directory = try makeTemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory + "/public/css", withIntermediateDirectories: true)
        try "body { color: red }".write(toFile: directory + "/public/css/app.css", atomically: true, encoding: .utf8)
        try "secret".write(toFile: directory + "/secret.txt", atomically: true, encoding: .utf8)
        try "hidden".write(toFile: directory + "/public/.env", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: directory + "/public/link.txt", withDestinationPath: directory + "/secret.txt")
        try String(repeating: "p { margin: 0 } ", count: 200).write(toFile: directory + "/public/css/more.css", atomically: true, encoding: .utf8)
        let files = try StaticFiles(root: directory + "/public", prefix: "/static/",
                                    bundles: [.init("css/all.css", of: ["css/app.css", "css/more.css"])])
        return (directory, files.wrapping { _ in .text("app") }, files)
    }

    @Test func servesWithContentTypeAndETagThen304() throws {
        let site = try Self.makeSite()
        defer { try? FileManager.default.removeItem(atPath: site.directory) }
        try withServer(handler: site.handler) { server throws in
            let client = try SocketClient(port: server.port)
            let reply = try client.request("GET", "/static/css/app.css")
            #expect(reply.status == 200)
            #expect(reply.text == "body { color: red }")
            #expect(reply.header("Content-Type") == "text/css; charset=utf-8")
            #expect(reply.header("Cache-Control") == "no-cache")
            let etag = try #require(reply.header("ETag"))
            let again = try client.request("GET", "/static/css/app.css", headers: ["If-None-Match": etag])
            #expect(again.status == 304)
            #expect(again.header("ETag") == etag)
            #expect(try client.request("GET", "/static/css/app.css", headers: ["If-None-Match": "\"other\""]).status == 200)
            #expect(try client.request("GET", "/elsewhere").text == "app")
        }
    }

    @Test func nothingOutsideTheRootIsReachable() throws {
        let site = try Self.makeSite()
        defer { try? FileManager.default.removeItem(atPath: site.directory) }
        try withServer(handler: site.handler) { server throws in
            for target in ["/static/../secret.txt", "/static/%2e%2e/secret.txt", "/static/..%2fsecret.txt",
                           "/static/css/..%5c..%5csecret.txt", "/static/css/%2e%2e/%2e%2e/secret.txt",
                           "/static/link.txt", "/static/.env", "/static/", "/static/css"] {
                let reply = try SocketClient(port: server.port).request("GET", target)
                #expect(reply.status == 404, "\(target)")
                #expect(!reply.text.contains("secret") && !reply.text.contains("hidden"), "\(target)")
            }
        }
    }

    /// At its versioned address a file is kept by browsers for a year without asking; at any
    /// other (plain, or an older version's) it is revalidated.
    @Test func aVersionedAddressIsCachedForGoodAndAPlainOneRevalidated() throws {
        let site = try Self.makeSite()
        defer { try? FileManager.default.removeItem(atPath: site.directory) }
        try withServer(handler: site.handler) { server throws in
            let client = try SocketClient(port: server.port)
            let versioned = try client.request("GET", site.files.versionedPrefix + "css/app.css")
            #expect(versioned.status == 200 && versioned.text == "body { color: red }")
            #expect(versioned.header("Cache-Control") == "public, max-age=31536000, immutable")
            let older = try client.request("GET", "/static/0123456789/css/app.css")
            #expect(older.text == "body { color: red }" && older.header("Cache-Control") == "no-cache")
            #expect(try client.request("GET", site.files.versionedPrefix + "css/none.css").status == 404)
        }
    }

    /// Text goes out as Brotli or gzip, whichever the client takes (Brotli first), decoded by each
    /// project's own decoder to the same bytes; a bundle is its parts, in order.
    @Test func textIsSentCompressedAsTheClientTakesIt() throws {
        let site = try Self.makeSite()
        defer { try? FileManager.default.removeItem(atPath: site.directory) }
        let whole = Array("body { color: red }\n\(String(repeating: "p { margin: 0 } ", count: 200))\n".utf8)
        try withServer(handler: site.handler) { server throws in
            let client = try SocketClient(port: server.port)
            let path = site.files.versionedPrefix + "css/all.css"
            let brotli = try client.request("GET", path, headers: ["Accept-Encoding": "gzip, deflate, br"])
            #expect(brotli.header("Content-Encoding") == "br" && brotli.header("Vary") == "Accept-Encoding")
            #expect(try unbrotli(brotli.body) == whole)
            #expect(brotli.body.count < whole.count / 10)
            let gzip = try client.request("GET", path, headers: ["Accept-Encoding": "gzip"])
            #expect(gzip.header("Content-Encoding") == "gzip")
            #expect(try gunzip(gzip.body) == whole)
            let plain = try client.request("GET", path)
            #expect(plain.header("Content-Encoding") == nil && plain.body == whole)
        }
    }
}
