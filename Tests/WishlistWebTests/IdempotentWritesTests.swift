import Foundation
import HTTPServer
import Testing
import TestSupport
import WishlistCore
@testable import WishlistWeb

/// A write sent again with the key it was first sent with (kept offline, its answer lost) is
/// written once and answered as the first time; another key is another write.
@Suite struct IdempotentWritesTests {
    @Test func aCheckOffSentTwiceWithOneKeyIsWrittenOnceAndAnsweredAlike() throws {
        let fixture = try AppHarness()
        let token = try fixture.csrfToken()
        let activity = try #require(try fixture.store.fetch(.checklist(tripID: 1))?.activities.first { !$0.isComplete })
        let target = "/activities/\(activity.id)/complete"
        let before = try fixture.store.database.latestHistoryToken()

        let first = try fixture.client.post(target, form: [("complete", "true")], token: token, headers: ["Idempotency-Key": "check-1"])
        try fixture.store.setActivityComplete(id: activity.id, false)  // meanwhile, another tab unchecks it
        let again = try fixture.client.post(target, form: [("complete", "true")], token: token, headers: ["Idempotency-Key": "check-1"])
        #expect(first.status == 303 && again.status == 303 && again.header("Location") == first.header("Location"))
        let after = try fixture.store.database.latestHistoryToken()
        #expect(after == before + 2, "the check-off and the other tab's, once each")
        let meanwhile = try fixture.store.activity(id: activity.id)
        #expect(meanwhile?.isComplete == false, "the key's write was not run again")

        let other = try fixture.client.post(target, form: [("complete", "true")], token: token, headers: ["Idempotency-Key": "check-2"])
        let now = try fixture.store.activity(id: activity.id)
        #expect(other.status == 303 && now?.isComplete == true)
    }

    @Test func aKeyThatIsNotOneIsRefused() throws {
        let fixture = try AppHarness()
        let token = try fixture.csrfToken()
        for key in ["", String(repeating: "k", count: 65), "a b", "ключ"] {
            let reply = try fixture.client.post("/activities/1/complete", form: [("complete", "true")], token: token,
                                                headers: ["Idempotency-Key": key])
            #expect(reply.status == 400, "\(key)")
        }
    }

    /// How many activities of trip `tripID` are called `name`.
    private static func count(_ name: String, in tripID: Int64, _ fixture: AppHarness) throws -> Int {
        try #require(try fixture.store.fetch(.checklist(tripID: tripID))).activities.filter { $0.name == name }.count
    }

    @Test func theSameKeyWithAnotherBodyRouteOrSenderIsRefusedNeverAnsweredAsTheFirst() throws {
        let fixture = try AppHarness()
        let token = try fixture.csrfToken()
        let secret = try APITokens.create(named: "sync", in: fixture.store)
        let key = ["Idempotency-Key": "shared-1"]
        #expect(try fixture.client.post("/trips/1/activities", form: [("name", "First")], token: token, headers: key).status == 303)
        let anotherBody = try fixture.client.post("/trips/1/activities", form: [("name", "Second")], token: token, headers: key)
        let anotherRoute = try fixture.client.post("/trips/2/activities", form: [("name", "First")], token: token, headers: key)
        #expect(anotherBody.status == 422 && anotherRoute.status == 422)
        #expect(anotherBody.text.contains("Idempotency-Key was sent with another request"))
        #expect(try Self.count("Second", in: 1, fixture) == 0 && Self.count("First", in: 2, fixture) == 0)
        #expect(try Self.count("First", in: 1, fixture) == 1)

        // The same request, the same key, from a browser and then from an API token.
        let json = Array(#"{"name": "Both"}"#.utf8)
        let browser = try fixture.client.send("POST", "/api/trips/1/activities", headers: [
            "Idempotency-Key": "shared-2", "Content-Type": "application/json", "Cookie": "csrf_token=\(token)", "X-CSRF-Token": token,
        ], body: json)
        let script = try fixture.client.send("POST", "/api/trips/1/activities", headers: [
            "Idempotency-Key": "shared-2", "Content-Type": "application/json", "Authorization": "Bearer \(secret)",
        ], body: json)
        #expect(browser.status == 201 && script.status == 422)
        #expect(try Self.count("Both", in: 1, fixture) == 1)
    }

    @Test func aReplayAfterTenThousandAndOneOtherKeyedWritesIsWrittenOnce() throws {
        let fixture = try AppHarness()
        let token = try fixture.csrfToken()
        let keep = { try fixture.client.post("/trips/1/activities", form: [("name", "Kept offline")], token: token,
                                             headers: ["Idempotency-Key": "first"]) }
        let first = try keep()
        for n in 0...10_000 {
            let sort = n.isMultiple(of: 2) ? ActivitySortOrder.title : .dateCreated
            let other = try fixture.client.post("/preferences/activity-sort", form: [("sort", sort.rawValue)], token: token,
                                                headers: ["Idempotency-Key": "other-\(n)"])
            try #require(other.status == 303)
        }
        let replay = try keep()
        #expect(first.status == 303 && replay.status == 303 && replay.header("Location") == first.header("Location"))
        #expect(try Self.count("Kept offline", in: 1, fixture) == 1)
    }

    @Test func keysExpireByAgeAndPastItsQuotaAClientLosesOnlyItsOwnOldest() throws {
        let fixture = try AppHarness()
        let clock = try #require(fixture.clock)
        let store = fixture.store
        func write(_ key: String, by client: String) throws {
            try store.database.withCompanion(store.recordingKey(key, client: client, fingerprint: key, quota: 2)) {
                try store.setActivitySortOrder(.title)
            }
        }
        try write("a-1", by: "a")
        for key in ["b-1", "b-2", "b-3"] { try write(key, by: "b") }
        #expect(try store.keptWrite(key: "b-1") == nil, "past b's quota, b's oldest went")
        #expect(try store.keptWrite(key: "a-1")?.fingerprint == "a-1", "never another client's")
        #expect(try store.keptWrite(key: "b-3") != nil)

        clock.advance(by: .seconds(WishlistStore.idempotencyKeyLifetime + 1))
        #expect(try store.keptWrite(key: "a-1") == nil)
    }

    @Test func aDuplicateOfAWriteInFlightIsAnsweredAtOnceWithoutWaitingForIt() throws {
        let fixture = try AppHarness()
        let writes = IdempotentWrites(store: fixture.store)
        let request = { (key: String) in try Request(method: .post, target: "/trips/1/activities", headers: [IdempotentWrites.header: key]) }
        let entered = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        let first = try request("held")
        DispatchQueue.global().async {
            _ = try? writes.respond(to: first) { _ in
                entered.signal()
                release.wait()
                return Response(status: .seeOther)
            }
            done.signal()
        }
        entered.wait()
        defer { release.signal(); done.wait() }

        // While the first is held: its duplicate is told to try again, here and now (no write slot
        // kept waiting), without running; an unrelated write goes through.
        do {
            _ = try writes.respond(to: try request("held")) { _ in
                Issue.record("the duplicate ran")
                return Response(status: .seeOther)
            }
            Issue.record("the duplicate was answered as written")
        } catch let error as HTTPError {
            #expect(error.status == .conflict && error.headers["Retry-After"] == "1")
        }
        let unrelated = try writes.respond(to: try request("unrelated")) { _ in Response(status: .seeOther) }
        #expect(unrelated.status == .seeOther)
    }

    @Test func aWriteReplayedAfterTheServerWasKilledAndStartedAgainIsWrittenOnce() throws {
        let first = try ServePasswordTests.ServeProcess(arguments: [], environment: [:])
        var browser = Browser(Endpoint(port: try first.readyPort()))
        _ = try browser.get("/trips/1")
        let keep = { (browser: inout Browser) in
            try browser.post("/trips/1/activities", form: [("name", "Kept offline")], headers: ["Idempotency-Key": "across-a-restart"])
        }
        let written = try keep(&browser)
        #expect(written.status == 303)
        kill(first.process.processIdentifier, SIGKILL)
        _ = first.exit()

        let second = try ServePasswordTests.ServeProcess(arguments: ["--data-dir", first.folder + "/data"], environment: [:])
        browser = Browser(Endpoint(port: try second.readyPort()))
        _ = try browser.get("/trips/1")  // a new session's cookie, as after a restart
        let replay = try keep(&browser)
        #expect(replay.status == 303 && replay.header("Location") == written.header("Location"))
        let names = (try browser.get("/api/trips/1").json()["activities"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(names.filter { $0 == "Kept offline" }.count == 1)
    }
}
