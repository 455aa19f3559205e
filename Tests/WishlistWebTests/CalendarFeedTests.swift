import Foundation
import HTTPServer
import Persistence
import Testing
import TestSupport
import WishlistCore
@testable import WishlistWeb

/// Subscribable calendars at secret addresses (`CalendarFeeds`), made on the Data page.
@Suite struct CalendarFeedTests {
    /// The feed's components: each `BEGIN:…`/`END:…` block of `kind` as its unfolded lines.
    static func components(_ kind: String, in text: String) -> [[String: String]] {
        let lines = text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
        var found: [[String: String]] = [], current: [String: String]?
        for line in lines {
            if line == "BEGIN:\(kind)" { current = [:] } else if line == "END:\(kind)", let done = current {
                found.append(done)
                current = nil
            } else if current != nil, let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].split(separator: ";")[0]
                current![String(name)] = String(line[line.index(after: colon)...])
            }
        }
        return found
    }

    static func datedTripCount(_ store: WishlistStore) throws -> Int {
        try store.database.read { try $0.fetchScalar(Int.self, "SELECT count(*) FROM Trip WHERE start_date IS NOT NULL") ?? 0 }
    }

    @Test func aFeedOfEveryTripHasEachDatedTripAsAnEventAndItsActivitiesAsToDos() throws {
        let harness = try AppHarness()
        let path = try CalendarFeedSecrets.create(named: "phone", tripID: nil, in: harness.store)
        let reply = try harness.client.get(path)
        #expect(reply.status == 200 && reply.header("Content-Type") == "text/calendar; charset=utf-8")
        #expect(reply.text.hasPrefix("BEGIN:VCALENDAR\r\n") && reply.text.hasSuffix("END:VCALENDAR\r\n"))
        let events = Self.components("VEVENT", in: reply.text)
        let dated = try Self.datedTripCount(harness.store)
        #expect(dated > 0 && events.count == dated)
        let activities = try harness.store.database.read { connection in
            try connection.fetchScalar(Int.self, "SELECT count(*) FROM Activity JOIN Trip ON Trip.id = trip_id WHERE start_date IS NOT NULL") ?? 0
        }
        #expect(Self.components("VTODO", in: reply.text).count == activities)
        #expect(events.allSatisfy { $0["SEQUENCE"] != nil && $0["LAST-MODIFIED"] != nil && $0["URL"]?.hasPrefix("http://127.0.0.1/trips/") == true })
    }

    @Test func aChangeRaisesTheSequenceUnderTheSameUIDAndADeletedTripLeaves() throws {
        let harness = try AppHarness()
        let path = try CalendarFeedSecrets.create(named: "phone", tripID: nil, in: harness.store)
        let trip = try #require(harness.store.fetch(.calendarEntries(limit: 1)).first?.trip)
        let uid = "trip-\(trip.id)@wishlist"
        func event() throws -> [String: String]? {
            Self.components("VEVENT", in: try harness.client.get(path).text).first { $0["UID"] == uid }
        }
        let before = try #require(try event())
        let activity = try harness.store.addActivity(tripID: trip.id, name: "Ride the night ferry")
        let added = try #require(try event())
        #expect(Int(added["SEQUENCE"]!)! > Int(before["SEQUENCE"]!)!)
        #expect(added["DESCRIPTION"]?.contains("Ride the night ferry") == true)
        // A rename touches the activity's row alone, not the trip's: it still raises the event's.
        try harness.store.renameActivity(id: activity, name: "Ride the dawn ferry")
        let renamed = try #require(try event())
        #expect(Int(renamed["SEQUENCE"]!)! > Int(added["SEQUENCE"]!)!)
        #expect(renamed["DESCRIPTION"]?.contains("Ride the dawn ferry") == true)
        let todo = Self.components("VTODO", in: try harness.client.get(path).text).first { $0["UID"] == "activity-\(activity)@wishlist" }
        #expect(todo?["RELATED-TO"] == uid && todo?["STATUS"] == "NEEDS-ACTION")

        _ = try harness.store.deleteTrip(id: trip.id)
        let after = try harness.client.get(path).text
        #expect(try event() == nil && !after.contains("activity-\(activity)@wishlist"))
        #expect(Self.components("VEVENT", in: after).count == (try Self.datedTripCount(harness.store)))
    }

    @Test func aTripsFeedShowsThatTripAloneAndNothingOnceItIsDeleted() throws {
        let harness = try AppHarness()
        let trip = try #require(harness.store.fetch(.calendarEntries(limit: 2)).last?.trip)
        let path = try CalendarFeedSecrets.create(named: "one-trip", tripID: trip.id, in: harness.store)
        #expect(Self.components("VEVENT", in: try harness.client.get(path).text).map { $0["UID"] } == ["trip-\(trip.id)@wishlist"])
        _ = try harness.store.deleteTrip(id: trip.id)
        let emptied = try harness.client.get(path)
        #expect(emptied.status == 200 && Self.components("VEVENT", in: emptied.text).isEmpty)
        #expect(throws: WishlistError.notFound(entity: "trip", id: 999_999)) {
            try CalendarFeedSecrets.create(named: "nothing", tripID: 999_999, in: harness.store)
        }
    }

    @Test func aRevokedOrRotatedAddressIs404AtOnce() throws {
        let harness = try AppHarness()
        let path = try CalendarFeedSecrets.create(named: "phone", tripID: nil, in: harness.store)
        #expect(try harness.client.get(path).status == 200)
        let rotated = try CalendarFeedSecrets.rotate(named: "phone", in: harness.store)
        #expect(try harness.client.get(path).status == 404)
        #expect(try harness.client.get(rotated).status == 200)
        // A page on another site cannot read it even knowing the address (a calendar app sends no Sec-Fetch-Site).
        #expect(try harness.client.get(rotated, headers: ["Sec-Fetch-Site": "cross-site"]).status == 403)
        // The Host check comes first (DNS rebinding): another name is refused even a live feed.
        #expect(try InProcessEndpoint(server: harness.server, host: "evil.example").get(rotated).status == 421)
        try harness.store.revokeCalendarFeed(name: "phone")
        let gone = try harness.client.get(rotated)
        #expect(gone.status == 404 && gone.text.contains("copy the feed’s address again"))
        for guess in ["/calendar/", "/calendar/wlc_guess.ics", String(rotated.dropLast(4)), rotated + "x"] {
            #expect(try harness.client.get(guess).status == 404, "\(guess)")
        }
        #expect([403, 405].contains(try harness.client.send("POST", rotated).status), "a feed is only read")
    }

    @Test func aFeedIsAnswered304UntilSomethingChanges() throws {
        let harness = try AppHarness()
        let path = try CalendarFeedSecrets.create(named: "phone", tripID: nil, in: harness.store)
        let first = try harness.client.get(path)
        let etag = try #require(first.header("ETag"))
        let again = try harness.client.get(path, headers: ["If-None-Match": etag])
        #expect(again.status == 304 && again.body.isEmpty)
        // Another host name draws other links: another tag.
        var other = InProcessEndpoint(server: harness.server, host: "localhost")
        other.remoteAddress = "127.0.0.1"
        #expect(try other.get(path, headers: ["If-None-Match": etag]).status == 200)
        let trip = try #require(harness.store.fetch(.calendarEntries(limit: 1)).first?.trip)
        _ = try harness.store.addActivity(tripID: trip.id, name: "Pack")
        let changed = try harness.client.get(path, headers: ["If-None-Match": etag])
        #expect(changed.status == 200 && changed.header("ETag") != etag)
    }

    /// Dated trips added until there are `count`: a feed of them is more than one part.
    static func datedTrips(_ count: Int, in store: WishlistStore) throws {
        for number in 0..<(count - (try datedTripCount(store))) {
            _ = try store.addTrip(TripDraft(name: "Trip \(number)", collection: .summerVibes,
                                            startDate: "2027-07-01", endDate: "2027-07-03"))
        }
    }

    /// The feed at `path` answered as to a calendar app at `address`, its body not read yet.
    static func unread(_ path: String, on harness: AppHarness, from address: String = "127.0.0.1") throws -> Response {
        harness.server.respond(to: try Request(method: .get, target: path, headers: ["Host": "127.0.0.1"], remoteAddress: address))
    }

    /// More trips than one part: the feed is sent part by part and holds every trip once.
    @Test func aFeedLargerThanOnePartIsSentWhole() throws {
        let harness = try AppHarness()
        try Self.datedTrips(CalendarFeeds.partSize + 20, in: harness.store)
        let path = try CalendarFeedSecrets.create(named: "all", tripID: nil, in: harness.store)
        let uids = Self.components("VEVENT", in: try harness.client.get(path).text).compactMap { $0["UID"] }
        #expect(uids.count == CalendarFeeds.partSize + 20 && Set(uids).count == uids.count)
    }

    /// Readers that stop reading a large feed hold no thread and nothing an archive needs:
    /// eight of them (a thread each once took all eight) leave Download Archive free, and past
    /// the feeds' share of one address, another address still gets its feed.
    @Test func stalledFeedReadersLeaveDownloadArchiveFree() throws {
        let harness = try AppHarness()
        try Self.datedTrips(CalendarFeeds.partSize + 20, in: harness.store)
        let path = try CalendarFeedSecrets.create(named: "all", tripID: nil, in: harness.store)
        let stalled = try (0..<8).map { _ in try Self.unread(path, on: harness) }
        #expect(stalled.allSatisfy { $0.status == .ok })
        let archive = try harness.downloadArchive()
        #expect(archive.status == 200 && archive.header("Content-Type") == "application/zip")
        #expect(try Self.unread(path, on: harness).status == .serviceUnavailable, "one address has its share")
        let elsewhere = try Self.unread(path, on: harness, from: "192.0.2.7")
        #expect(elsewhere.status == .ok)
        withExtendedLifetime((stalled, elsewhere)) {}
    }

    /// A feed being sent when its address is rotated or revoked stops at its next part: the
    /// reader gets a failed download, never the rest of the calendar.
    @Test func aFeedBeingSentStopsWhenItsAddressIsRotatedOrRevoked() throws {
        let harness = try AppHarness()
        try Self.datedTrips(CalendarFeeds.partSize + 20, in: harness.store)
        for end in ["rotate", "revoke"] {
            let path = try CalendarFeedSecrets.create(named: end, tripID: nil, in: harness.store)
            let response = try Self.unread(path, on: harness)
            #expect(response.status == .ok)
            if end == "rotate" { _ = try CalendarFeedSecrets.rotate(named: end, in: harness.store) }
            else { try harness.store.revokeCalendarFeed(name: end) }
            #expect(throws: (any Error).self, "\(end)") { try InProcessEndpoint.reply(response) }
        }
    }

    /// A one-trip feed's tag and `SEQUENCE` follow that trip and its activities alone.
    @Test func aTripsFeedChangesWithThatTripAlone() throws {
        let harness = try AppHarness()
        let entries = try harness.store.fetch(.calendarEntries(limit: 2))
        let (trip, other) = (try #require(entries.first?.trip), try #require(entries.last?.trip))
        let path = try CalendarFeedSecrets.create(named: "one-trip", tripID: trip.id, in: harness.store)
        func sequence(_ reply: Reply) -> String? { Self.components("VEVENT", in: reply.text).first?["SEQUENCE"] }
        let first = try harness.client.get(path)
        let etag = try #require(first.header("ETag"))
        let otherActivity = try harness.store.addActivity(tripID: other.id, name: "Somewhere else")
        try harness.store.renameActivity(id: otherActivity, name: "Somewhere else again")
        _ = try harness.store.addTrip(TripDraft(name: "Another", collection: .summerVibes, startDate: "2027-01-01"))
        #expect(try harness.client.get(path, headers: ["If-None-Match": etag]).status == 304)
        #expect(sequence(try harness.client.get(path)) == sequence(first))
        _ = try harness.store.addActivity(tripID: trip.id, name: "Here")
        let changed = try harness.client.get(path, headers: ["If-None-Match": etag])
        #expect(changed.status == 200 && changed.header("ETag") != etag)
        #expect(Int(sequence(changed) ?? "") ?? 0 > Int(sequence(first) ?? "") ?? 0)
    }

    /// With a password, the feed's address opens the feed without a session, and its secret,
    /// wherever it is put, opens nothing else: every route answers as it does to a made-up one.
    @Test func withAPasswordTheSecretOpensItsFeedAndNothingElse() throws {
        let harness = try AppHarness(password: "correct horse")
        let path = try CalendarFeedSecrets.create(named: "phone", tripID: nil, in: harness.store)
        #expect(try harness.client.get(path).status == 200)
        let secret = String(path.dropFirst(CalendarFeeds.prefix.count).dropLast(4))
        let decoy = CalendarFeeds.secretPrefix + String(repeating: "0", count: 64)
        let cookie = harness.app.configuration.passwordOptions.sessionCookieName
        var tried = 0
        for route in harness.app.makeRouter().routes {
            func answer(_ key: String) throws -> [Int] {
                let target = route.pattern.split(separator: "/", omittingEmptySubsequences: false)
                    .map { $0.hasPrefix(":") ? key : String($0) }.joined(separator: "/")
                return try [
                    harness.client.send(route.method.rawValue, target).status,
                    harness.client.send(route.method.rawValue, target + "?feed=\(key)&token=\(key)&key=\(key)").status,
                    harness.client.send(route.method.rawValue, target, headers: ["Cookie": "\(cookie)=\(key)"]).status,
                    harness.client.send(route.method.rawValue, target, headers: ["Authorization": "Bearer \(key)"]).status,
                ]
            }
            let withSecret = try answer(secret)
            #expect(withSecret == (try answer(decoy)), "\(route.method) \(route.pattern)")
            #expect(!withSecret.contains(200) || route.pattern == "/favicon.ico", "\(route.method) \(route.pattern)")
            tried += 1
        }
        #expect(tried > 50)
    }

    @Test func theDataPageMakesRotatesAndRevokesAFeed() throws {
        let harness = try AppHarness()
        var browser = harness.browser()
        let trip = try #require(harness.store.fetch(.calendarEntries(limit: 1)).first?.trip)
        let page = try browser.get("/data?trip=\(trip.id)").text
        #expect(page.contains("No feeds yet.") && page.contains(#"<option value="\#(trip.id)" selected>"#))
        let created = try browser.post("/data/feeds", form: [("name", "phone"), ("trip", String(trip.id))])
        #expect(created.status == 200 && created.header("Cache-Control") == "no-store")
        let url = try #require(created.text.firstMatch(of: /id="new-feed-url">http:\/\/127\.0\.0\.1(\/calendar\/wlc_[0-9a-f]{64}\.ics)</)?.1)
        #expect(created.text.contains("webcal://127.0.0.1\(url)"))
        #expect(try harness.store.calendarFeeds().map(\.tripID) == [trip.id])
        #expect(try harness.client.get(String(url)).status == 200)
        let listed = try browser.get("/data").text
        #expect(listed.contains(#"<a href="/trips/\#(trip.id)">"#) && !listed.contains(String(url)))

        // Refused, with what was typed and chosen kept in the form.
        let taken = try browser.post("/data/feeds", form: [("name", "phone"), ("trip", String(trip.id))]).text
        #expect(taken.contains("There is already a feed called") && taken.contains(#"id="feed-name" name="name" value="phone""#))
        #expect(taken.contains(#"<option value="\#(trip.id)" selected>"#))
        #expect(try browser.post("/data/feeds", form: [("name", "two words"), ("trip", "")]).status == 422)

        let rotated = try browser.post("/data/feeds/phone/rotate", form: [])
        let newURL = try #require(rotated.text.firstMatch(of: /id="new-feed-url">http:\/\/127\.0\.0\.1(\/calendar\/wlc_[0-9a-f]{64}\.ics)</)?.1)
        #expect(newURL != url)
        #expect(try harness.client.get(String(url)).status == 404)
        let revoked = try browser.post("/data/feeds/phone/revoke", form: [])
        #expect(revoked.status == 303 && revoked.header("Location") == "/data#feeds")
        #expect(try harness.client.get(String(newURL)).status == 404)
        #expect(try browser.post("/data/feeds/phone/revoke", form: []).status == 404)
    }

    /// The calendar-level properties (before the first component), unfolded.
    static func calendarProperties(in text: String) -> [String] {
        let head = text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\nBEGIN:V")[0]
        return head.components(separatedBy: "\r\n")
    }

    /// A calendar app lists a feed under a name (the app's for every trip, the trip's for one)
    /// and fetches it again after the hint; the download of one trip says the same.
    @Test func aFeedAndADownloadAreNamedAndSayWhenToFetchThemAgain() throws {
        let harness = try AppHarness()
        let id = try harness.store.addTrip(TripDraft(name: #"Porto; "Lisbon", Faro"#, collection: .summerVibes, startDate: "2027-06-01"))
        let refresh = ["REFRESH-INTERVAL;VALUE=DURATION:PT1H", "X-PUBLISHED-TTL:PT1H"]
        let all = Self.calendarProperties(in: try harness.client.get(try CalendarFeedSecrets.create(named: "all", tripID: nil, in: harness.store)).text)
        #expect(all.contains("X-WR-CALNAME:Wishlist") && refresh.allSatisfy(all.contains), "\(all)")
        let one = Self.calendarProperties(in: try harness.client.get(try CalendarFeedSecrets.create(named: "one", tripID: id, in: harness.store)).text)
        #expect(one.contains(#"X-WR-CALNAME:Porto; "Lisbon", Faro"#) && refresh.allSatisfy(one.contains), "\(one)")
        let download = try harness.client.get("/trips/\(id)/calendar.ics")
        #expect(Self.calendarProperties(in: download.text) == one)
        #expect(download.header("Content-Disposition") == #"attachment; filename="Porto-Lisbon-Faro.ics""#)
    }

    /// A new feed's address is the one the page was reached at: under a LAN name another device
    /// can use it; under a loopback name the notice says only this computer can, and how to serve
    /// on the network. Either way it has a Copy button (shown by data.js).
    @Test func aNewFeedsAddressSaysWhoCanReachIt() throws {
        let harness = try AppHarness(allowedHosts: ["wishlist.lan"])
        func created(at host: String) throws -> String {
            var browser = Browser(InProcessEndpoint(server: harness.server, host: host))
            _ = try browser.get("/data")
            return try browser.post("/data/feeds", form: [("name", "feed\(host.count)"), ("trip", "")]).text
        }
        let local = try created(at: "127.0.0.1:8080")
        #expect(local.contains(#"id="new-feed-url">http://127.0.0.1:8080/calendar/wlc_"#))
        #expect(local.contains("only this computer can use it") && local.contains("--allowed-host NAME"))
        #expect(local.contains(#"<button class="button secondary" type="button" data-copy hidden>Copy</button>"#))
        #expect(try created(at: "[::1]:8080").contains("only this computer can use it"))
        let lan = try created(at: "wishlist.lan:8080")
        #expect(lan.contains(#"id="new-feed-url">http://wishlist.lan:8080/calendar/wlc_"#) && lan.contains("webcal://wishlist.lan:8080/calendar/wlc_"))
        #expect(!lan.contains("only this computer can use it"))
    }
}
