import Foundation
import HTTPServer
import Imaging
import Persistence
import TestSupport
import Testing
import WishlistCore
@testable import WishlistWeb

/// How errors of the lower layers are answered, and that error pages are made inside the
/// middleware chain (with the viewer's CSRF token and session).
@Suite struct ErrorPageTests {
    /// An activity gone by the time the check-off's write runs: a trigger deletes the row inside
    /// the write's own transaction, just before the UPDATE, and drops the UPDATE (no row to
    /// update): the store finds it gone and throws `notFound` (rolling the trigger's delete back
    /// with it), whatever else its transaction did.
    @Test func aCheckOffOfAnActivityDeletedMeanwhileIs404Not500() throws {
        let fixture = try AppHarness()
        let activity = try fixture.activity(named: AppHarness.tenthActivity)
        try fixture.store.database.write(author: "test") { db in
            try db.execute("""
                CREATE TRIGGER delete_before_check_off BEFORE UPDATE OF is_complete ON Activity
                BEGIN DELETE FROM Activity WHERE id = OLD.id; SELECT RAISE(IGNORE); END
                """)
        }
        let token = try fixture.csrfToken()
        let reply = try fixture.client.post("/activities/\(activity.id)/complete",
                                                           form: [("complete", "true")], token: token)
        #expect(reply.status == 404)
        #expect(reply.text.contains("There is no activity number \(activity.id). It may have been deleted."))
    }

    @Test func withAPasswordA404PageCarriesTheSessionsTokenAndSignsOut() throws {
        let fixture = try AppHarness(password: "open sesame")
        let client = fixture.client
        let token = try #require(try client.get("/login").cookie(CSRFProtection.cookieName))
        let signIn = try client.post("/login", form: [("password", "open sesame")], token: token)
        let session = try #require(signIn.cookie(ServePasswordTests.sessionCookie))
        let cookies = "\(ServePasswordTests.sessionCookie)=\(session); \(CSRFProtection.cookieName)=\(token)"

        let page = try client.get("/trips/999999", headers: ["Cookie": cookies, "Accept": "text/html"])
        #expect(page.status == 404 && page.text.contains("Sign Out"))
        let signOutForm = try #require(page.text.firstMatch(of: #/action="/logout">\s*<input type="hidden" name="_csrf" value="([^"]*)"/#))
        #expect(signOutForm.output.1 == token)

        let signOut = try client.post("/logout", form: [("_csrf", String(signOutForm.output.1))], token: nil,
                                      headers: ["Cookie": cookies])
        #expect(signOut.status == 303 && signOut.header("Location") == "/login")
        #expect(try client.get("/api/trips", headers: ["Cookie": cookies]).status == 401)
    }

    /// Refused from its Content-Length before a byte of it is read, so the server has no request
    /// to render with: still the app's page, with what to do and a way back, and its headers once.
    @Test func anUploadOverTheLimitGetsTheStyledPageBeforeItIsRead() throws {
        let fixture = try LiveServer(maxPhotoBytes: 1024 * 1024)
        let head = "POST /trips HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=x\r\n"
            + "Content-Length: \(5 * 1024 * 1024)\r\n\r\n"
        let reply = try SocketClient(port: fixture.port).exchange(Array(head.utf8))
        #expect(reply.status == 413)
        #expect(reply.header("Content-Type") == "text/html; charset=utf-8")
        #expect(reply.text.contains("<style>"), "styled, with no request to say the browser holds the stylesheet")
        #expect(reply.text.contains("Upload too large") && reply.text.contains("choose a smaller one"))
        #expect(reply.text.contains(#"<a class="button" href="/">Back to Wishlist</a>"#))
        for name in ["Content-Security-Policy", "X-Content-Type-Options", "X-Frame-Options", "Content-Type"] {
            #expect(reply.headers.filter { $0.name.lowercased() == name.lowercased() }.count == 1, "\(name)")
        }
    }

    @Test func apiErrorsStayJSONInsideTheChain() throws {
        let fixture = try AppHarness(password: "open sesame")
        let client = fixture.client
        let token = try #require(try client.get("/login").cookie(CSRFProtection.cookieName))
        let session = try #require(try client.post("/login", form: [("password", "open sesame")], token: token)
            .cookie(ServePasswordTests.sessionCookie))
        let reply = try client.get("/api/trips/999999", headers: ["Cookie": "\(ServePasswordTests.sessionCookie)=\(session)"])
        #expect(reply.status == 404 && reply.header("Content-Type")?.hasPrefix("application/json") == true)
        let error = try #require(try JSONSerialization.jsonObject(with: Data(reply.body)) as? [String: [String: Any]])
        #expect(error["error"]?["status"] as? Int == 404)
    }

    /// The JSON surfaces answer refusals as JSON wherever they are raised: by the server before
    /// the body is read (chunked, over the limit, a long address) or by a route, with the
    /// security headers every answer carries.
    @Test func jsonSurfacesRefuseInJSONBeforeAndAfterTheBodyIsRead() throws {
        let fixture = try LiveServer(maxPhotoBytes: 1024 * 1024)
        let secret = try APITokens.create(named: "sync", in: fixture.store)
        let bearer = "Authorization: Bearer \(secret)\r\n"
        let heads: [(String, Int)] = [
            ("POST /api/trips HTTP/1.1\r\nHost: 127.0.0.1\r\n\(bearer)Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 411),
            ("POST /api/trips HTTP/1.1\r\nHost: 127.0.0.1\r\n\(bearer)Content-Type: application/json\r\nContent-Length: \(5 << 20)\r\n\r\n", 413),
            ("GET /api/trips?q=\(String(repeating: "a", count: 9000)) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(bearer)\r\n", 414),
            ("GET /places?q=\(String(repeating: "a", count: 500)) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 400),
        ]
        for (head, status) in heads {
            let reply = try SocketClient(port: fixture.port).exchange(Array(head.utf8))
            #expect(reply.status == status, "\(head.prefix(60))")
            #expect(reply.header("Content-Type")?.hasPrefix("application/json") == true, "\(head.prefix(60)): \(reply.text.prefix(80))")
            #expect(try reply.json()["error"] != nil, "\(head.prefix(60))")
            #expect(reply.header("X-Content-Type-Options") == "nosniff" && reply.header("Content-Security-Policy") != nil)
        }
        let hugeJSON = "{\"name\": \"\(String(repeating: " ", count: APIBody.maxBytes))\", \"collection\": \"springEscapes\"}"
        let reply = try fixture.client.send("POST", "/api/trips", headers: ["Authorization": "Bearer \(secret)", "Content-Type": "application/json"],
                                            body: Array(hugeJSON.utf8))
        #expect(reply.status == 413 && reply.text.contains("A JSON body may be at most 64 KB."), "\(reply.text.prefix(200))")
    }

    @Test func domainAndStorageErrorsMapToTheirStatus() {
        let cases: [(any Error, HTTPStatus, String)] = [
            (WishlistError.notFound(entity: "trip", id: 7), .notFound, "There is no trip number 7. It may have been deleted."),
            (ValidationError(field: "name", message: "Enter a trip title."), .unprocessableContent, "Enter a trip title."),
            (DatabaseError(extendedResultCode: 13 /* SQLITE_FULL */), .insufficientStorage, StorageFull.message),
            (ImagingError.diskFull("No space left on device"), .insufficientStorage, StorageFull.message),
            (DatabaseError(extendedResultCode: 11 /* SQLITE_CORRUPT */), .internalServerError, HTTPError.internalErrorMessage),
            (ImagingError.storageFailed("rename failed"), .internalServerError, HTTPError.internalErrorMessage),
        ]
        for (error, status, message) in cases {
            let answer = HTTPError(wrapping: error)
            #expect(answer.status == status, "\(error)")
            #expect(answer.message == message, "\(error)")
        }
    }
}
