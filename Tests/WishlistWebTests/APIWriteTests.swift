import Foundation
import HTTPServer
import Imaging
import Testing
import TestSupport
import WishlistCore
@testable import WishlistWeb

/// The JSON API's writes in process: through an API token (no cookies, no CSRF token, its own
/// history author) or a browser's cookies (CSRF-protected as the forms are), with the pages'
/// validation and statuses.
@Suite struct APIWriteTests {
    private let harness: AppHarness
    private let secret: String

    init() throws {
        harness = try AppHarness()
        secret = try APITokens.create(named: "sync", in: harness.store)
    }

    private func send(_ method: String, _ target: String, json: String? = nil, secret: String? = nil,
                      headers: [String: String] = [:]) throws -> Reply {
        var headers = headers
        headers["Authorization"] = headers["Authorization"] ?? "Bearer \(secret ?? self.secret)"
        if json != nil { headers["Content-Type"] = "application/json" }
        return try harness.client.send(method, target, headers: headers, body: Array((json ?? "").utf8))
    }

    private func newestAuthor() throws -> String? {
        try harness.store.database.fetchHistory(after: harness.store.database.latestHistoryToken() - 1).last?.author
    }

    @Test func aTokenCreatesChangesAndDeletesATripAsItsOwnAuthor() throws {
        let created = try send("POST", "/api/trips", json: #"{"name": " Lisbon Trams ", "collection": "springEscapes"}"#)
        #expect(created.status == 201)
        let trip = try created.json()
        let id = try #require((trip["id"] as? NSNumber)?.int64Value)
        #expect(trip["name"] as? String == "Lisbon Trams" && created.header("Location") == "/api/trips/\(id)")
        #expect(try newestAuthor() == "token:sync")

        let changed = try send("PUT", "/api/trips/\(id)", json: #"{"name": "Porto", "subtitle": "Ribeira", "collection": "fallGetaways"}"#)
        #expect(try changed.status == 200 && changed.json()["subtitle"] as? String == "Ribeira")
        #expect(try harness.store.trip(id: id)?.collection == .fallGetaways)

        #expect(try send("DELETE", "/api/trips/\(id)").status == 204)
        #expect(try harness.store.trip(id: id) == nil)
        #expect(try send("DELETE", "/api/trips/\(id)").status == 404)
    }

    @Test func aTripsDestinationTravelsAsItsPlaceTokenAndItsPositionComesFromTheGazetteer() throws {
        let sample = try harness.trip(named: "Japan Mystique")
        let listed = try send("GET", "/api/trips/\(sample.id)").json()["trip"] as? [String: Any]
        let destination = try #require(listed?["destination"] as? [String: Any])
        let token = try #require(destination["place"] as? String)
        // A script sends the token back with a position of its own: the gazetteer's wins.
        let created = try send("POST", "/api/trips", json: """
            {"name": "Kyoto Again", "collection": "fallGetaways", "startDate": "2027-11-20", "endDate": "2027-11-27",
             "destination": {"name": "Kyoto, Japan", "place": "\(token)", "latitude": 0, "longitude": 0}}
            """)
        #expect(created.status == 201)
        let id = try #require((try created.json()["id"] as? NSNumber)?.int64Value)
        let trip = try #require(try harness.store.trip(id: id))
        #expect(trip.destination == sample.destination && trip.startDate?.description == "2027-11-20")

        let renamed = try send("PUT", "/api/trips/\(id)", json: #"{"name": "Kyoto", "collection": "fallGetaways", "destination": {"name": "Old Kyoto"}}"#)
        #expect(renamed.status == 200)
        let replaced = try #require(try harness.store.trip(id: id))
        #expect(replaced.destination?.name == "Old Kyoto" && replaced.destination?.coordinate == nil, "text without a token is free text")
        #expect(replaced.startDate == nil, "a write replaces the whole trip, as the form does")
        let refused = try send("PUT", "/api/trips/\(id)", json: #"{"name": "Kyoto", "collection": "fallGetaways", "startDate": "2027-11-20", "endDate": "2027-11-01"}"#)
        #expect(refused.status == 422 || refused.status == 400)
    }

    @Test func activitiesAreAddedCheckedOffRenamedAndDeleted() throws {
        let trip = try harness.trip(named: "Cali Coastal Trails")
        let added = try send("POST", "/api/trips/\(trip.id)/activities", json: #"{"name": "Bixby Bridge", "isComplete": true}"#)
        #expect(added.status == 201)
        let id = try #require((try added.json()["id"] as? NSNumber)?.int64Value)
        #expect(try harness.store.activity(id: id)?.isComplete == true)

        let unchecked = try send("PATCH", "/api/activities/\(id)", json: #"{"isComplete": false, "name": "Bixby Creek Bridge"}"#)
        #expect(unchecked.status == 200)
        #expect(try unchecked.json()["isComplete"] as? Bool == false && unchecked.json()["name"] as? String == "Bixby Creek Bridge")
        #expect(try send("GET", "/api/activities/\(id)").json()["tripID"] as? NSNumber == NSNumber(value: trip.id))
        #expect(try newestAuthor() == "token:sync")

        #expect(try send("DELETE", "/api/activities/\(id)").status == 204)
        #expect(try send("GET", "/api/activities/\(id)").status == 404)
    }

    @Test func badBodiesAreRefusedWithTheFormsRulesAsJSON() throws {
        let id = try harness.trip(named: "Cali Coastal Trails").id
        let cases: [(String, String, String?, Int, String)] = [
            ("POST", "/api/trips", #"{"name": "", "collection": "springEscapes"}"#, 422, "Enter a trip title."),
            ("POST", "/api/trips", #"{"name": "X", "collection": "monsoon"}"#, 422, "Choose one of the four collections."),
            ("POST", "/api/trips", #"{"collection": "springEscapes"}"#, 400, "name is missing."),
            ("POST", "/api/trips", #"{"name": 5, "collection": "springEscapes"}"#, 400, "name:"),
            ("POST", "/api/trips", "not json", 400, "The body is not valid JSON."),
            ("POST", "/api/trips/\(id)/activities", "{}", 400, "name is missing."),
            ("POST", "/api/trips/999999/activities", #"{"name": "A"}"#, 404, "There is no trip number 999999."),
            ("PATCH", "/api/activities/abc", "{}", 404, "There is no activity “abc”."),
            ("PUT", "/api/trips/\(id)/photo", nil, 400, "Send the photo"),
        ]
        for (method, target, json, status, message) in cases {
            let reply = try send(method, target, json: json)
            #expect(reply.status == status, "\(method) \(target) \(json ?? "")")
            let error = try reply.json()["error"] as? [String: Any]
            #expect((error?["message"] as? String)?.contains(message) == true, "\(reply.text)")
        }
        let form = try send("POST", "/api/trips", headers: ["Content-Type": "text/plain"])
        #expect(form.status == 400 && form.text.contains("Send the body as JSON"))
    }

    @Test func aPhotoIsAttachedAsTheRawBodyAndReadBack() throws {
        let id = try harness.trip(named: "Cali Coastal Trails").id
        let before = try #require(try harness.store.trip(id: id))
        #expect(before.destination != nil && before.startDate != nil)
        let jpeg = try ImageGenerator.gradientJPEG(width: 800, height: 500, colors: [
            RGBColor(red: 90, green: 150, blue: 220), RGBColor(red: 250, green: 200, blue: 150)], seed: 9)
        let reply = try harness.client.send("PUT", "/api/trips/\(id)/photo",
                                            headers: ["Authorization": "Bearer \(secret)", "Content-Type": "image/jpeg"], body: jpeg)
        #expect(reply.status == 200)
        let version = try #require(try reply.json()["photoVersion"] as? String)
        let after = try #require(try harness.store.trip(id: id))
        #expect(after.photo?.version == version)
        #expect(after.destination == before.destination && after.startDate == before.startDate && after.endDate == before.endDate,
                "a new photo changes nothing else of the trip")
        let original = try send("GET", "/api/trips/\(id)/photo")
        #expect(original.status == 200 && original.body == jpeg)
        #expect(try newestAuthor() == "token:sync")

        let notAnImage = try harness.client.send("PUT", "/api/trips/\(id)/photo",
                                                 headers: ["Authorization": "Bearer \(secret)"], body: Array("hello".utf8))
        #expect(notAnImage.status == 422 && notAnImage.text.contains("isn't a supported image"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: harness.store.photos.directory.path)
            .allSatisfy { !$0.hasPrefix(".api-upload") })
    }

    @Test func aWrongOrRevokedTokenIsA401AndNeverFallsBackToCookies() throws {
        var browser = harness.browser()
        _ = try browser.get("/data")
        let csrf = try #require(browser.cookies[CSRFProtection.cookieName])
        for bad in ["wlt_nope", "", "  "] {
            let reply = try browser.send(.post, "/api/trips", headers: ["Authorization": "Bearer \(bad)", "X-CSRF-Token": csrf,
                                                                        "Content-Type": "application/json"],
                                         body: Array(#"{"name": "X", "collection": "springEscapes"}"#.utf8))
            #expect(reply.status == 401 && reply.header("WWW-Authenticate")?.hasPrefix("Bearer") == true, "\(bad)")
        }
        #expect(try send("GET", "/api/trips", headers: ["Authorization": "Basic dXNlcjpwYXNz"]).status == 401)
        #expect(try send("GET", "/data").status == 401, "tokens are for /api/ only")

        try harness.store.revokeAPIToken(name: "sync")
        let revoked = try send("GET", "/api/trips")
        #expect(revoked.status == 401 && revoked.header("WWW-Authenticate") == #"Bearer error="invalid_token""#)
        #expect((try revoked.json()["error"] as? [String: Any])?["message"] as? String == "That API token is not valid (it may have been revoked).")
    }

    /// Cookie requests stay as CSRF-protected as the forms; with the token they write as "app".
    @Test func aBrowsersAPIWritesNeedTheirCSRFTokenAndAreTheApps() throws {
        var browser = harness.browser()
        _ = try browser.get("/data")
        let body = Array(#"{"name": "Lisbon", "collection": "springEscapes"}"#.utf8)
        #expect(try browser.send(.post, "/api/trips", headers: ["Content-Type": "application/json"], body: body).status == 403)
        let csrf = try #require(browser.cookies[CSRFProtection.cookieName])
        let reply = try browser.send(.post, "/api/trips", headers: ["Content-Type": "application/json", "X-CSRF-Token": csrf], body: body)
        #expect(reply.status == 201)
        #expect(try newestAuthor() == WishlistStore.appAuthor)
        #expect(try browser.get("/api/token").status == 401)
    }

    @Test func aTokenNamesItselfAndItsAuthor() throws {
        let reply = try send("GET", "/api/token")
        #expect(reply.status == 200)
        #expect(try reply.json()["name"] as? String == "sync" && reply.json()["author"] as? String == "token:sync")
        #expect(reply.setCookies.isEmpty, "a bearer request gets no CSRF cookie")
    }

    /// A sync client reads everyone's changes but its own.
    @Test func theHistoryLeavesOutTheExcludedAuthor() throws {
        let before = try harness.store.database.latestHistoryToken()
        _ = try send("POST", "/api/trips", json: #"{"name": "By sync", "collection": "springEscapes"}"#)
        try harness.store.addTrip(TripDraft(name: "By hand", collection: .summerVibes))
        let page = try send("GET", "/api/history?after=\(before)&excludeAuthors=token:sync").json()
        let authors = (page["transactions"] as? [[String: Any]] ?? []).map { $0["author"] as? String }
        #expect(authors == ["app"])
        #expect((page["newestToken"] as? NSNumber)?.int64Value == before + 2)
        #expect(try send("GET", "/api/history?authors=app&excludeAuthors=seed").status == 400)
    }
}
