import Foundation
import Testing
import TestSupport
@testable import HTTPServer

@Suite struct StaticFilesTests {
    /// `<dir>/public/css/app.css`, a secret beside the root, and a symlink pointing at it.
    static func makeSite() throws -> (directory: String, handler: Handler) {
        let directory = try makeTemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory + "/public/css", withIntermediateDirectories: true)
        try "body { color: red }".write(toFile: directory + "/public/css/app.css", atomically: true, encoding: .utf8)
        try "secret".write(toFile: directory + "/secret.txt", atomically: true, encoding: .utf8)
        try "hidden".write(toFile: directory + "/public/.env", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: directory + "/public/link.txt", withDestinationPath: directory + "/secret.txt")
        let files = try StaticFiles(root: directory + "/public", prefix: "/static/")
        return (directory, files.wrapping { _ in .text("app") })
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
}
