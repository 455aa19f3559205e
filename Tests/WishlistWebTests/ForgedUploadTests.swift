import Foundation
import HTTPServer
import Imaging
import Testing
import TestSupport
@testable import WishlistWeb

/// The app's server refuses a forged upload from its head, with the app's refusal page, and the
/// app's own trip form (a Done button ahead of the form's token) still uploads.
@Suite struct ForgedUploadTests {
    @Test func anUploadFromAnotherSiteIsRefusedBeforeItsBodyIsSent() throws {
        let site = try LiveServer()
        defer { site.stop() }
        let before = try site.snapshot()
        let client = try SocketClient(port: site.port)
        // What a browser sends for another site's form: its site, its origin and no cookie.
        let reply = try client.request("POST", "/trips", headers: [
            "Sec-Fetch-Site": "cross-site", "Origin": "http://evil.example", "Content-Length": "\(20 * 1024 * 1024)",
            "Content-Type": "multipart/form-data; boundary=forged",
        ])
        #expect(reply.status == 403)
        #expect(reply.text.contains("This form has expired or came from another site. Reload the page and try again."))
        for name in ["Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "X-Frame-Options"] {
            #expect(reply.headers.filter { $0.name.lowercased() == name.lowercased() }.count == 1, "\(name)")
        }
        #expect(client.isClosedByServer())
        #expect(try FileManager.default.contentsOfDirectory(atPath: site.directory).filter { $0.hasPrefix("upload-") }.isEmpty)
        #expect(try site.snapshot() == before)
    }

    @Test func theTripFormSavesWhenItsDoneButtonComesBeforeItsToken() throws {
        let site = try LiveServer(maxPhotoBytes: 2 * 1024 * 1024)
        defer { site.stop() }
        let token = try site.csrfToken()
        let jpeg = try ImageGenerator.gradientJPEG(width: 320, height: 200, colors: [
            RGBColor(red: 90, green: 150, blue: 220), RGBColor(red: 250, green: 200, blue: 150),
        ], seed: 1, grain: 8)
        // Done sits in the toolbar, before the form in the document: a browser sends it first.
        let form = SocketClient.multipart([("return", "/"), (CSRFProtection.fieldName, token), ("name", "Done First"),
                                           ("subtitle", ""), ("collection", "springEscapes")], photo: ("done.jpg", jpeg))
        let reply = try Endpoint(port: site.port).send("POST", "/trips", headers: [
            "Cookie": "\(CSRFProtection.cookieName)=\(token)", "Content-Type": form.contentType,
        ], body: form.body)
        #expect(reply.status == 303)
        let trip = try #require(try site.store.recentTrips(limit: 1).first)
        #expect(trip.name == "Done First" && trip.photo != nil)
    }
}
