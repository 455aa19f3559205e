import Foundation
import HTTPServer
import Testing
import TestSupport
@testable import WishlistCore
@testable import WishlistWeb

/// Bad input through the whole app: each gets a clear 4xx (a form message, an error page or a
/// JSON error) and nothing in the database changes.
@Suite struct BadInputTests {
    @Test func badNamesGetAFormMessageAndChangeNothing() throws {
        let fixture = try AppHarness(maxPhotoBytes: AppHarness.securityPhotoLimit)
        let before = try fixture.snapshot()
        let token = try fixture.csrfToken()
        let client = fixture.client
        let enormous = String(repeating: "Å", count: 10_000)
        let cases: [(name: String, tripMessage: String, activityMessage: String)] = [
            ("", "Enter a trip title.", "Enter an activity name."),
            ("   \t ", "Enter a trip title.", "Enter an activity name."),
            (enormous, "Keep the title under 200 characters.", "Keep the activity name under 200 characters."),
        ]
        for (name, tripMessage, activityMessage) in cases {
            let trip = try client.post("/trips", form: [("name", name), ("collection", TripCollection.springEscapes.rawValue)], token: token)
            #expect(trip.status == 422 && trip.text.contains(tripMessage), "trip named \(name.prefix(10))")
            // The form comes back with what was typed, so nothing is lost.
            #expect(trip.text.contains("aria-invalid=\"true\""))
            let edit = try client.post("/trips/1", form: [("name", name), ("collection", TripCollection.springEscapes.rawValue)]
                                       + fixture.formVersions(ofTrip: 1), token: token)
            #expect(edit.status == 422 && edit.text.contains(tripMessage))
            let activity = try client.post("/trips/1/activities", form: [("name", name)], token: token)
            #expect(activity.status == 422 && activity.text.contains(activityMessage))
            let rename = try client.post("/activities/1", form: [("name", name)], token: token)
            #expect(rename.status == 422 && rename.text.contains(activityMessage))
        }
        let unknownCollection = try client.post("/trips", form: [("name", "Oslo"), ("collection", "../../etc")], token: token)
        #expect(unknownCollection.status == 422)
        #expect(try fixture.snapshot() == before)
    }

    @Test func unknownAndNonNumericIdsAreFriendly404s() throws {
        let fixture = try AppHarness(maxPhotoBytes: AppHarness.securityPhotoLimit)
        let before = try fixture.snapshot()
        let token = try fixture.csrfToken()
        let client = fixture.client
        for path in ["/trips/999999", "/trips/abc", "/trips/-1", "/trips/0", "/trips/1.5", "/trips/99999999999999999999",
                     "/trips/1e3", "/trips/%201", "/activities/abc/delete", "/activities/999999/delete",
                     "/collections/autumn", "/no/such/page"] {
            let reply = try client.get(path)
            #expect(reply.status == 404, "\(path)")
            #expect(reply.header("Content-Type")?.hasPrefix("text/html") == true && reply.text.contains("Not found"), "\(path)")
        }
        for path in ["/trips/999999/activities", "/trips/abc/delete", "/activities/999999/complete", "/activities/x"] {
            #expect(try client.post(path, form: [("name", "x"), ("complete", "true")], token: token).status == 404, "\(path)")
        }
        for path in ["/api/trips/999999", "/api/trips/abc"] {
            let reply = try client.get(path)
            #expect(reply.status == 404 && reply.header("Content-Type") == "application/json", "\(path)")
            #expect(reply.text.contains("\"status\":404"))
        }
        #expect(try fixture.snapshot() == before)
    }

    @Test func noAddressReachesAFileOutsidePublic() throws {
        let fixture = try LiveServer(maxPhotoBytes: AppHarness.securityPhotoLimit)
        let client = Endpoint(port: fixture.port)
        for path in ["/static/../Package.swift", "/static/%2e%2e/Package.swift", "/static/css/..%2f..%2f..%2fPackage.swift",
                     "/static/%2F%2E%2E%2FPackage.swift", "/static/..%5c..%5cPackage.swift", "/static/.gitignore",
                     "/static//etc/passwd", "/static/css/app.css%00.txt"] {
            let reply = try client.get(path)
            #expect([400, 404].contains(reply.status), "\(path) → \(reply.status)")
            #expect(!reply.text.contains("swift-tools-version") && !reply.text.contains("root:x:0"), "\(path)")
        }
    }

    @Test func wrongMethodsAre405WithAllow() throws {
        let fixture = try AppHarness(maxPhotoBytes: AppHarness.securityPhotoLimit)
        let before = try fixture.snapshot()
        let token = try fixture.csrfToken()
        let client = fixture.client
        let withToken = ["Cookie": "\(CSRFProtection.cookieName)=\(token)", CSRFProtection.headerName: token]
        let cases: [(method: String, path: String, allow: String)] = [
            ("PUT", "/", "GET, HEAD"), ("DELETE", "/goals", "GET, HEAD"), ("PATCH", "/api/trips", "GET, HEAD, POST"),
            ("GET", "/preferences/activity-sort", "POST"), ("DELETE", "/trips/1", "GET, HEAD, POST"),
            ("POST", "/static/css/app.css", "GET, HEAD"),
        ]
        for (method, path, allow) in cases {
            let reply = try client.send(method, path, headers: withToken)
            #expect(reply.status == 405, "\(method) \(path)")
            #expect(reply.header("Allow") == allow, "\(method) \(path)")
        }
        #expect(try fixture.snapshot() == before)
    }

    @Test func aHugeQueryStringIsRefusedQuicklyAndTheServerKeepsServing() throws {
        let fixture = try LiveServer(maxPhotoBytes: AppHarness.securityPhotoLimit)
        let client = Endpoint(port: fixture.port)
        for length in [100_000, 1_000_000] {
            let reply = try client.get("/search?q=" + String(repeating: "a", count: length))
            #expect(reply.status == 414)
        }
        // Long enough to be silly, short enough to reach the app (under 8 KB): the search says its limit.
        for path in ["/search?q=", "/api/search?q="] {
            let reply = try client.get(path + String(repeating: "a", count: 5_000))
            #expect(reply.status == 400 && reply.text.contains("Search for at most 200 characters."))
        }
        #expect(try client.get("/search?q=lisbon").status == 200)
    }

    @Test func undecodableFormsAndPathsAre400AndChangeNothing() throws {
        let fixture = try LiveServer(maxPhotoBytes: AppHarness.securityPhotoLimit)
        let before = try fixture.snapshot()
        let token = try fixture.csrfToken()
        let client = Endpoint(port: fixture.port)
        let cookie = ["Cookie": "\(CSRFProtection.cookieName)=\(token)", "Content-Type": "application/x-www-form-urlencoded"]
        let bodies: [[UInt8]] = [
            Array("_csrf=\(token)&collection=summerVibes&name=%FF%FE".utf8),
            Array("_csrf=\(token)&collection=summerVibes&name=Caf%C3".utf8),
            Array("_csrf=\(token)&collection=summerVibes&name=".utf8) + [0xC3, 0x28],
            Array("_csrf=\(token)&collection=summerVibes&name=a%00b".utf8),
        ]
        for body in bodies {
            let reply = try client.send("POST", "/trips", headers: cookie, body: body)
            #expect(reply.status == 400 && reply.text.contains("not valid UTF-8"))
        }
        for path in ["/trips/%FF", "/search%C3%28"] {
            #expect(try client.get(path).status == 400)
        }
        #expect(try fixture.snapshot() == before)
    }

    @Test func oversizedAndBrokenUploadsAreRefusedAndChangeNothing() throws {
        let fixture = try LiveServer(maxPhotoBytes: AppHarness.securityPhotoLimit)
        let before = try fixture.snapshot()
        let token = try fixture.csrfToken()
        let client = Endpoint(port: fixture.port)
        let boundary = "broken-upload"
        let head = ["Cookie": "\(CSRFProtection.cookieName)=\(token)", "Content-Type": "multipart/form-data; boundary=\(boundary)"]

        var oversized = head
        oversized["Content-Length"] = "\(3 * 1024 * 1024)"
        let tooLarge = try client.exchange(Array(("POST /trips HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + oversized.map { "\($0.key): \($0.value)\r\n" }.joined() + "\r\n").utf8), expectBody: true)
        #expect(tooLarge.status == 413 && tooLarge.text.contains("That photo is too large. Photos can be up to 1 MB."))

        let fields = "--\(boundary)\r\nContent-Disposition: form-data; name=\"_csrf\"\r\n\r\n\(token)\r\n"
            + "--\(boundary)\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nHalf a trip\r\n"
            + "--\(boundary)\r\nContent-Disposition: form-data; name=\"collection\"\r\n\r\nsummerVibes\r\n"
        let truncated = fields + "--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.jpg\"\r\n\r\nxxxx"
        let reply = try client.send("POST", "/trips", headers: head, body: Array(truncated.utf8))
        #expect(reply.status == 400 && reply.text.contains("ended too early"))

        var noBoundary = head
        noBoundary["Content-Type"] = "multipart/form-data"
        #expect(try client.send("POST", "/trips", headers: noBoundary, body: Array(fields.utf8)).status == 400)
        #expect(try fixture.snapshot() == before)
        // No temporary upload file is left behind.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixture.directory).filter { $0.hasPrefix("upload-") }
        #expect(leftovers.isEmpty)
    }
}
