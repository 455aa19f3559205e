import Foundation
import Glibc
import HTTPServer
import Imaging
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Photo uploads and photo serving through the real server, middleware and templates, over
/// real sockets, on a fresh data directory.
@Suite struct PhotoRouteTests {
    private let site: PhotoSite

    init() throws {
        site = try PhotoSite(maxPhotoBytes: 2 * 1024 * 1024)
    }

    @Test func uploadedPhotoShowsAsThumbnailOnTheWishlistAndFullOnTheTripPage() throws {
        let jpeg = try site.photo(seed: 3)
        let reply = try site.postTripForm("/trips", name: "Lisbon Trams", photo: ("lisbon.jpg", jpeg))
        #expect(reply.status == 303 && reply.header("Location") == "/")

        let trip = try #require(try site.store.recentTrips(limit: 1).first)
        #expect(trip.name == "Lisbon Trams")
        let photo = try #require(trip.photo)
        let home = try site.get("/").text
        #expect(home.contains(#"src="/trips/\#(trip.id)/thumbnail?v=\#(photo.version)" width="480" height="300""#))

        let thumbnail = try site.get("/trips/\(trip.id)/thumbnail?v=\(photo.version)")
        #expect(thumbnail.status == 200)
        #expect(thumbnail.header("Content-Type") == "image/webp")
        #expect(thumbnail.header("Cache-Control") == "public, max-age=31536000, immutable")
        #expect(thumbnail.header("X-Content-Type-Options") == "nosniff")
        #expect(try MediaType.detect(bytes: thumbnail.body) == "image/webp")
        #expect(thumbnail.body.count < 40_000)
        let etag = try #require(thumbnail.header("ETag"))
        #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))

        let revalidated = try site.get("/trips/\(trip.id)/thumbnail?v=\(photo.version)", headers: ["If-None-Match": etag])
        #expect(revalidated.status == 304 && revalidated.body.isEmpty)
        #expect(try site.get("/trips/\(trip.id)/thumbnail").header("Cache-Control") == "no-cache", "an unversioned URL may change")

        let page = try site.get("/trips/\(trip.id)").text
        #expect(page.contains(#"src="/trips/\#(trip.id)/photo?v=\#(photo.version)" width="1600" height="1000""#))
        let full = try site.get("/trips/\(trip.id)/photo?v=\(photo.version)")
        #expect(full.status == 200 && full.header("Content-Type") == "image/jpeg")
        #expect(full.body == jpeg)
        #expect(full.header("Cache-Control") == "public, max-age=31536000, immutable")
        #expect(try site.get("/trips/\(trip.id)/photo", headers: ["If-None-Match": full.header("ETag") ?? "?"]).status == 304)
    }

    @Test func nonImageGetsTheFormBackWithTheMessageAndTheUsersInput() throws {
        let reply = try site.postTripForm("/trips", name: "Lisbon Trams", subtitle: "Custard tarts",
                                          photo: ("tarts.jpg", Array("not a picture at all\n".utf8)))
        #expect(reply.status == 422)
        // Next to the Photo field (apostrophe HTML-escaped).
        #expect(reply.text.contains(
            #"<p class="field-error" id="new-trip-photo-error">That file isn&#39;t a supported image (JPEG, PNG, WebP, HEIC).</p>"#))
        #expect(reply.text.contains(#"value="Lisbon Trams""#) && reply.text.contains(#"value="Custard tarts""#))
        #expect(try site.store.recentTrips(limit: 20).count == 12)
        #expect(try site.storedFileCount() == 12)
    }

    @Test func oversizeUploadGetsAPageNamingTheLimit() throws {
        let reply = try site.postTripForm("/trips", name: "Too big", photo: ("big.jpg", Array(repeating: 0xFF, count: 3_500_000)))
        #expect(reply.status == 413)
        #expect(reply.text.contains("That photo is too large. Photos can be up to 2 MB."), "\(reply.text)")
        #expect(try site.store.recentTrips(limit: 20).count == 12)
    }

    @Test func editFormReplacesThePhotoAndTheOldFileGoes() throws {
        let trip = try #require(try site.store.recentTrips(limit: 1).first)
        let oldFile = try #require(try site.store.photoFile(tripID: trip.id)).fileName
        let edit = try site.get("/trips/\(trip.id)?edit=1").text
        #expect(edit.contains("/trips/\(trip.id)/thumbnail?v=\(trip.photo?.version ?? "?")"), "the edit form shows the current photo")

        let reply = try site.postTripForm("/trips/\(trip.id)", name: trip.name, collection: trip.collection.rawValue,
                                          photo: ("new.jpg", try site.photo(seed: 9)))
        #expect(reply.status == 303)

        let replaced = try #require(try site.store.trip(id: trip.id)?.photo)
        #expect(replaced.version != trip.photo?.version)
        #expect(!site.store.photos.contains(oldFile))
        #expect(try site.get("/trips/\(trip.id)/thumbnail?v=\(replaced.version)").status == 200)
    }

    @Test func heicIsServedAsItsJPEGRendition() throws {
        let source = site.directory.appendingPathComponent("source.jpg")
        // Small: HEVC encoding is slow.
        try Data(try site.photo(seed: 4, width: 320, height: 200)).write(to: source)
        let heic = site.directory.appendingPathComponent("phone.heic").path
        try PhotoSite.run("/usr/bin/vips", ["copy", source.path, heic])
        let reply = try site.postTripForm("/trips", name: "iPhone trip", photo: ("IMG_0001.HEIC", try Array(Data(contentsOf: URL(fileURLWithPath: heic)))))
        #expect(reply.status == 303)

        let trip = try #require(try site.store.recentTrips(limit: 1).first)
        let full = try site.get("/trips/\(trip.id)/photo")
        #expect(full.header("Content-Type") == "image/jpeg")
        #expect(try MediaType.detect(bytes: full.body) == "image/jpeg")
    }

    @Test func tripsWithoutAPhotoOrWithAMissingFileShowThePlaceholder() throws {
        #expect(try site.postTripForm("/trips", name: "No photo yet").status == 303)
        let bare = try #require(try site.store.recentTrips(limit: 1).first)
        #expect(bare.photo == nil)
        #expect(try site.get("/").text.contains(#"<img src="/static/images/placeholder.svg" width="480" height="360""#))
        #expect(try site.get("/trips/\(bare.id)/thumbnail").status == 404)
        #expect(try site.get("/trips/\(bare.id)").text.contains(#"src="/static/images/placeholder.svg""#))

        let seeded = try #require(try site.store.trips(in: .winterRetreats).first)
        let file = try #require(try site.store.photoFile(tripID: seeded.id))
        try FileManager.default.removeItem(at: site.store.photos.url(for: file.fileName))
        let photo = try site.get("/trips/\(seeded.id)/photo")
        #expect(photo.status == 303 && photo.header("Location") == "/static/images/placeholder.svg")
    }
}

/// A `WishlistApp` on a temporary data directory behind a real server on an ephemeral port.
private final class PhotoSite {
    let directory: URL
    let store: WishlistStore
    let server: Server

    init(maxPhotoBytes: Int) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("photo-routes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try WishlistStore(path: directory.appendingPathComponent("wishlist.sqlite").path,
                                  photoLimits: PhotoLimits(maxBytes: maxPhotoBytes))
        let projectRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var appConfiguration = WishlistApp.Configuration(resourcesDirectory: projectRoot)
        appConfiguration.maxPhotoBytes = maxPhotoBytes
        let app = try WishlistApp(store: store, configuration: appConfiguration)
        var configuration = Server.Configuration(threadCount: 2)
        configuration.maxBodySize = maxPhotoBytes + 1024 * 1024
        configuration.errorPage = { status, message, request in app.errorPage(status: status, message: message, request: request) }
        server = Server(configuration: configuration, responder: try app.makeResponder())
        try server.start()
    }

    deinit {
        server.stop()
        store.close()
        try? FileManager.default.removeItem(at: directory)
    }

    func photo(seed: Int, width: Int = 1600, height: Int = 1000) throws -> [UInt8] {
        try ImageGenerator.gradientJPEG(width: width, height: height, colors: [
            RGBColor(red: 90, green: 150, blue: 220), RGBColor(red: 250, green: 200, blue: 150),
        ], seed: seed, grain: 8)
    }

    func storedFileCount() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: store.photos.directory.path).count
    }

    func get(_ target: String, headers: [String: String] = [:]) throws -> HTTPReply {
        try HTTPReply.exchange(port: server.port, method: "GET", target: target, headers: headers, body: [])
    }

    /// Posts the trip form as a browser does: the CSRF cookie and field from a GET first, multipart body.
    func postTripForm(_ action: String, name: String, subtitle: String = "", collection: String = "springEscapes",
                      photo: (fileName: String, bytes: [UInt8])? = nil) throws -> HTTPReply {
        let cookie = try #require(try get("/trips/new").header("Set-Cookie")?.split(separator: ";").first.map(String.init))
        let token = String(cookie.dropFirst("csrf_token=".count))
        let boundary = "----photo-test-boundary-\(UUID().uuidString)"
        var body: [UInt8] = []
        for (field, value) in [("_csrf", token), ("name", name), ("subtitle", subtitle), ("collection", collection)] {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field)\"\r\n\r\n\(value)\r\n".utf8)
        }
        if let photo {
            body += Array(("--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"\(photo.fileName)\"\r\n"
                + "Content-Type: image/jpeg\r\n\r\n").utf8) + photo.bytes + Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        return try HTTPReply.exchange(port: server.port, method: "POST", target: action, headers: [
            "Cookie": cookie, "Content-Type": "multipart/form-data; boundary=\(boundary)",
        ], body: body)
    }

    static func run(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(executable) \(arguments) failed")
    }
}

/// One request on its own connection (`Connection: close`), read to the end.
private struct HTTPReply {
    let status: Int
    let headers: [(name: String, value: String)]
    let body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    struct Failure: Error { let reason: String }

    static func exchange(port: Int, method: String, target: String, headers: [String: String], body: [UInt8]) throws -> HTTPReply {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(reason: "connect failed: \(errno)") }

        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        let request = Array((head + "\r\n").utf8) + body
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            // The server may answer (413) and close before reading a body it refuses.
            if count <= 0 { break }
            sent += count
        }

        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += chunk[0..<count]
        }
        return try parse(received)
    }

    private static func parse(_ bytes: [UInt8]) throws -> HTTPReply {
        let separator = Array("\r\n\r\n".utf8)
        guard let end = (0...max(0, bytes.count - 4)).first(where: { Array(bytes[$0..<min($0 + 4, bytes.count)]) == separator }) else {
            throw Failure(reason: "no complete reply: \(String(decoding: bytes, as: UTF8.self))")
        }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        guard let status = lines.first?.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
            throw Failure(reason: "bad status line \(lines.first ?? "")")
        }
        let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return HTTPReply(status: status, headers: headers, body: Array(bytes[(end + 4)...]))
    }
}
