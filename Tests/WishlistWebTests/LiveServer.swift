import Foundation
import Glibc
import HTTPServer
import WishlistCore
@testable import WishlistWeb

/// The real app on an ephemeral loopback port over a fresh seeded data directory, built the way
/// `wishlist serve` builds it. Stopped and removed by `stop()` or when released.
final class LiveServer {
    let directory: String
    let store: WishlistStore
    let app: WishlistApp
    let server: Server
    private var isStopped = false

    var port: Int { server.port }
    var databasePath: String { directory + "/wishlist.sqlite" }

    /// The folder holding `Templates/` and `Public/`: the package root, three levels above this file.
    static let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `streamsFromOneClient`: room for that many streams from the test's one address, past the
    /// limits that stop a flood.
    init(maxPhotoBytes: Int = PhotoLimits().maxBytes, heartbeatInterval: Double = 15, watchExternalChanges: Bool = false,
         password: String? = nil, streamsFromOneClient: Int? = nil) throws {
        directory = NSTemporaryDirectory() + "WishlistWebTests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        store = try WishlistStore(path: directory + "/wishlist.sqlite", photoLimits: PhotoLimits(maxBytes: maxPhotoBytes))
        if watchExternalChanges { store.database.startWatchingExternalChanges(interval: .milliseconds(20)) }
        var appConfiguration = WishlistApp.Configuration(resourcesDirectory: Self.resources)
        appConfiguration.maxPhotoBytes = maxPhotoBytes
        appConfiguration.password = password
        app = try WishlistApp(store: store, configuration: appConfiguration)
        var configuration = Server.Configuration(port: 0, threadCount: 2, heartbeatInterval: heartbeatInterval)
        // Room for the photo plus the form's other fields, as `serve` allows.
        configuration.maxBodySize = maxPhotoBytes + 1024 * 1024
        configuration.uploadDirectory = directory
        if let streamsFromOneClient {
            configuration.maxConnectionsPerAddress = streamsFromOneClient + 100
            configuration.eventStreamLimits.maxStreams = streamsFromOneClient
            configuration.eventStreamLimits.maxStreamsPerAddress = streamsFromOneClient
        }
        let app = app
        configuration.errorPage = app.errorPage(status:message:request:)
        server = Server(configuration: configuration, responder: try app.makeResponder())
        try server.start()
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

    /// One request on its own connection, every byte under the test's control (`WebClient`).
    func get(_ target: String, headers: [String: String] = [:]) throws -> WebClient.Reply {
        try WebClient(port: port).get(target, headers: headers)
    }

    /// The seeded activity called `name`.
    func activity(named name: String) throws -> Activity {
        guard let match = try store.search(name).activities.first(where: { $0.activity.name == name }) else {
            throw TestClient.Failure(description: "no seeded activity “\(name)”")
        }
        return match.activity
    }

    /// The seeded trip called `name`.
    func trip(named name: String) throws -> Trip {
        guard let trip = try store.search(name).trips.first(where: { $0.name == name }) else {
            throw TestClient.Failure(description: "no seeded trip “\(name)”")
        }
        return trip
    }

    /// The seed has 9 completed activities: this one is the 10th, which earns "10 Activities".
    static let tenthActivity = "Surf at Pleasure Point"

    /// Polls `condition` for up to five seconds.
    func waitUntil(_ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while try !condition() {
            guard Date() < deadline else { return false }
            usleep(2_000)
        }
        return true
    }
}

/// Raises this process' open-file limit to its hard limit (thousands of sockets, both ends here).
func raiseOpenFileLimit() -> Int {
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    limit.rlim_cur = limit.rlim_max
    setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    return Int(limit.rlim_cur)
}
