import Foundation
import HTTPServer
import Testing
import TestSupport
@testable import WishlistCore
@testable import WishlistWeb

/// The Data page in process: its links and forms, and the download.
@Suite struct DataPageTests {
    private let harness: AppHarness

    init() throws {
        harness = try AppHarness()
    }
    @Test func theWishlistLinksToTheDataPageWhichOffersBothForms() throws {
        #expect(try harness.client.get("/").text.contains(#"<a class="text-button" href="/data">Back Up &amp; Restore</a>"#))
        let page = try harness.client.get("/data")
        #expect(page.status == 200)
        #expect(page.text.contains(#"<form class="export-form" method="post" action="/data/export">"#))
        #expect(page.text.contains(#"<form class="archive-form" method="post" action="/data/import" enctype="multipart/form-data">"#))
        #expect(page.text.contains(#"<input type="hidden" name="_csrf" value=""#))
        #expect(page.text.contains("12 trips"))
        // The archive's limit is what the disk has room for (other tests write meanwhile).
        let limit = try #require(page.text.firstMatch(of: /data-max-bytes="([0-9]+)"/).flatMap { Int($0.1) })
        #expect(abs(limit - WishlistArchive.largestUpload(into: URL(fileURLWithPath: harness.directory))) < 64 << 20)
    }

    @Test func theDownloadIsTheWholeArchiveNamedByTheDateAndLeavesNothingOnDisk() throws {
        let reply = try harness.downloadArchive()
        #expect(reply.status == 200)
        #expect(reply.header("Content-Type") == "application/zip")
        #expect(reply.header("Content-Disposition") == #"attachment; filename="wishlist-2026-05-28.zip""#)
        let copy = harness.directory + "/copy.zip"
        try Data(reply.body).write(to: URL(fileURLWithPath: copy))
        let preview = try WishlistArchive(store: harness.store).stage(URL(fileURLWithPath: copy)).preview
        #expect(preview.isPackage && preview.trips == 12 && preview.photos == 12)
        #expect(try FileManager.default.contentsOfDirectory(atPath: harness.directory).filter { $0.hasPrefix(".export-") }.isEmpty)
    }

    /// Download Archive as a browser posts it, answered but not read: a client that stopped reading.
    private static func unreadExport(_ browser: inout Browser, on harness: AppHarness) throws -> Response {
        _ = try browser.get("/data")
        let token = try #require(browser.cookies[CSRFProtection.cookieName])
        var headers = HTTPHeaders()
        headers.add("Host", "127.0.0.1")
        headers.add("Cookie", "\(CSRFProtection.cookieName)=\(token)")
        headers.add("Content-Type", "application/x-www-form-urlencoded")
        let form = Array("\(CSRFProtection.fieldName)=\(token)".utf8)
        return harness.server.respond(to: try Request(method: .post, target: "/data/export", headers: headers,
                                                      body: form, remoteAddress: "127.0.0.1"))
    }

    /// Posts Download Archive until it is no longer refused as busy (or `seconds` pass).
    private static func exportOnceFree(_ browser: inout Browser, within seconds: TimeInterval) throws -> Reply {
        let deadline = Date().addingTimeInterval(seconds)
        var reply = try browser.post("/data/export", form: [])
        while reply.status == 429, Date() < deadline {
            usleep(10_000)
            reply = try browser.post("/data/export", form: [])
        }
        return reply
    }

    /// Packed while it is sent, one at a time: a second download waits for the first to finish,
    /// and a link (a GET, as an `<img>` on another site sends) makes none.
    @Test func oneArchiveIsSentAtATimeAndOnlyToAForm() throws {
        var browser = harness.browser()
        // Unread, the first archive fills its pipe and waits: its download is under way.
        var first: Response? = try Self.unreadExport(&browser, on: harness)
        guard case .piped = first?.body else { Issue.record("the archive is not sent as it is packed"); return }
        let second = try browser.post("/data/export", form: [])
        #expect(second.status == 429 && second.text.contains("An archive is being downloaded already"))
        #expect(try browser.get("/data/export").status == 405)

        first = nil  // the client left: the packing stops and the turn is free
        let third = try Self.exportOnceFree(&browser, within: 5)
        #expect(third.status == 200 && third.header("Content-Type") == "application/zip")
    }

    /// A client that stops reading holds the one export no longer than the stall timeout: its
    /// packing is given up, its staging folder goes, and the next download starts, while the
    /// stalled response is still held.
    @Test func aStalledDownloadGivesUpItsTurnAndItsStagingFolder() throws {
        let harness = try AppHarness(stallTimeout: .milliseconds(200))
        var browser = harness.browser()
        let stalled = try Self.unreadExport(&browser, on: harness)
        #expect(stalled.status == .ok)
        let next = try Self.exportOnceFree(&browser, within: 30)
        #expect(next.status == 200 && next.header("Content-Type") == "application/zip")
        #expect(try FileManager.default.contentsOfDirectory(atPath: harness.directory).filter { $0.hasPrefix(".export-") }.isEmpty)
        withExtendedLifetime(stalled) {}
    }

    @Test func confirmingAnUnknownOrMalformedIDChangesNothing() throws {
        var browser = harness.browser()
        _ = try browser.get("/data")
        let before = try harness.store.database.latestHistoryToken()
        for id in [String(repeating: "a", count: 32), "not-an-id", "1"] {
            let reply = try browser.post("/data/import/\(id)/confirm", form: [])
            #expect(reply.status == 404, "\(id)")
            #expect(reply.text.contains("That upload is no longer waiting"))
            #expect(reply.text.contains(#"action="/data/import""#), "the page offers the form again")
        }
        #expect(try harness.store.database.latestHistoryToken() == before)
        #expect(!FileManager.default.fileExists(atPath: harness.directory + "/backups"))
    }
}

/// Things kept between requests: they go when they expire, when taken, or when replaced.
@Suite final class ExpiringItemsTests {
    private let folder = URL(fileURLWithPath: NSTemporaryDirectory() + "ExpiringItemsTests-" + UUID().uuidString)
    private let clock = ManualClock()

    deinit { try? FileManager.default.removeItem(at: folder) }

    private func file(_ name: String) throws -> TemporaryFile {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data("x".utf8).write(to: url)
        return TemporaryFile(url)
    }

    private func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path) }

    @Test func anItemExpiresOnTheClockAndItsCleanupRuns() throws {
        let items = ExpiringItems<TemporaryFile>(clock: DateSource { [clock] in clock.date }, lifetime: 3600, capacity: 1)
        let id = items.insert(try file("a"))
        #expect(ExpiringItems<TemporaryFile>.isWellFormedID(id))
        clock.advance(by: .seconds(3599))
        items.removeExpired()
        #expect(exists("a"))
        clock.advance(by: .seconds(1))
        items.removeExpired()
        #expect(!exists("a"))
        #expect(items.take(id) == nil)
    }

    @Test func aNewItemReplacesTheOldestWhenFullAndATakenOneIsGone() throws {
        let items = ExpiringItems<TemporaryFile>(clock: DateSource { [clock] in clock.date }, lifetime: 3600, capacity: 1)
        let first = items.insert(try file("a"))
        let second = items.insert(try file("b"))
        #expect(first != second)
        #expect(!exists("a") && exists("b"))
        #expect(items.take(first) == nil)
        #expect(items.take(second)?.url.lastPathComponent == "b")
        #expect(items.take(second) == nil)
    }

    @Test func idsAreRandomHexAndNothingElseIsAccepted() {
        let ids = (0..<100).map { _ in ExpiringItems<TemporaryFile>.newID() }
        #expect(Set(ids).count == 100 && ids.allSatisfy(ExpiringItems<TemporaryFile>.isWellFormedID))
        for bad in ["", "../../etc/passwd", String(repeating: "A", count: 32), String(repeating: "a", count: 31), String(repeating: "g", count: 32)] {
            #expect(!ExpiringItems<TemporaryFile>.isWellFormedID(bad), "\(bad)")
        }
    }
}
