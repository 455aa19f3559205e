import Foundation
import HTTPServer
import Testing
import TestSupport
import WishlistCore
@testable import WishlistWeb

/// The real app over a fresh seeded data directory, with the server `wishlist serve` builds
/// (`WishlistApp.makeServer`), answered in process: `client` hands each request to the server
/// without a socket. Dates come from `clock` (a fixed one by default), so the seed and pages
/// repeat exactly. `LiveServer`
/// starts the same server on a port, for what needs one. Removed by `stop()` or when released.
class AppHarness {
    let directory: String
    /// nil: the system's clock.
    let clock: ManualClock?
    let store: WishlistStore
    let app: WishlistApp
    let server: Server
    private var isStopped = false

    var databasePath: String { directory + "/wishlist.sqlite" }

    /// Each request on its own, no cookies kept.
    var client: any RequestSender { InProcessEndpoint(server: server) }

    /// A browser that keeps its cookies between requests, back on the site: it holds the
    /// stylesheet already (a first visit's page differs, StylesheetTests).
    func browser() -> Browser {
        var browser = Browser(client)
        browser.cookies[Stylesheet.cookieName] = app.staticFiles.version
        return browser
    }

    /// The Data page's Download Archive, as a browser submits it.
    func downloadArchive() throws -> Reply {
        var browser = browser()
        _ = try browser.get("/data")
        return try browser.post("/data/export", form: [])
    }

    /// The folder holding `Templates/` and `Public/`: the package root, three levels above this file.
    static let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    init(maxPhotoBytes: Int = PhotoLimits().maxBytes, clock: ManualClock? = ManualClock(), password: String? = nil,
         allowedHosts: [String] = [], stallTimeout: Duration = PipedBody.defaultStallTimeout,
         server configuration: Server.Configuration = Server.Configuration(port: 0, threadCount: 2)) throws {
        directory = NSTemporaryDirectory() + "WishlistWebTests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        self.clock = clock
        store = try WishlistStore(path: directory + "/wishlist.sqlite", photoLimits: PhotoLimits(maxBytes: maxPhotoBytes),
                                  clock: clock.map { clock in DateSource { clock.date } } ?? .system)
        var appConfiguration = WishlistApp.Configuration(resourcesDirectory: Self.resources)
        appConfiguration.maxPhotoBytes = maxPhotoBytes
        appConfiguration.password = password
        appConfiguration.allowedHosts = allowedHosts
        appConfiguration.stallTimeout = stallTimeout
        app = try WishlistApp(store: store, configuration: appConfiguration)
        var configuration = configuration
        configuration.uploadDirectory = directory
        server = try app.makeServer(configuration)
    }

    deinit { stop() }

    func stop() {
        guard !isStopped else { return }
        isStopped = true
        server.stop()
        app.shutdown()
        store.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The versions trip `id`'s edit form is drawn with now (`was`, `activity-was-<id>`), which
    /// a form sends back with what was typed.
    func formVersions(ofTrip id: Int64) throws -> [(String, String)] {
        CurrentVersions.tripForm(try #require(try store.fetch(.checklist(tripID: id)))).map { ($0.name, $0.value) }
    }

    /// The seeded activity called `name`.
    func activity(named name: String) throws -> Activity {
        guard let match = try store.search(name).activities.first(where: { $0.activity.name == name }) else {
            throw TestFailure("no seeded activity “\(name)”")
        }
        return match.activity
    }

    /// The seeded trip called `name`.
    func trip(named name: String) throws -> Trip {
        guard let trip = try store.search(name).trips.first(where: { $0.name == name }) else {
            throw TestFailure("no seeded trip “\(name)”")
        }
        return trip
    }

    /// The seed has 9 completed activities: this one is the 10th, which earns "10 Activities".
    static let tenthActivity = "Surf at Pleasure Point"
}
