import Foundation
import Glibc
import HTTPServer
import TestSupport
import WishlistCore
@testable import WishlistWeb

/// The app of `AppHarness` served on an ephemeral loopback port, for what needs a real
/// connection: event streams, uploads, malformed HTTP, the server's limits.
final class LiveServer: AppHarness {
    var port: Int { server.port }

    /// A fresh connection per request.
    override var client: any RequestSender { Endpoint(port: port) }

    /// `streamsFromOneClient`: room for that many streams from the test's one address, past the
    /// limits that stop a flood.
    init(maxPhotoBytes: Int = PhotoLimits().maxBytes, heartbeatInterval: Double = 15, watchExternalChanges: Bool = false,
         password: String? = nil, streamsFromOneClient: Int? = nil) throws {
        var configuration = Server.Configuration(port: 0, threadCount: 2, heartbeatInterval: heartbeatInterval)
        if let streamsFromOneClient {
            configuration.maxConnectionsPerAddress = streamsFromOneClient + 100
            configuration.eventStreamLimits.maxStreams = streamsFromOneClient
            configuration.eventStreamLimits.maxStreamsPerAddress = streamsFromOneClient
        }
        // Dates from the system's clock: a running server's requests interleave with real time.
        try super.init(maxPhotoBytes: maxPhotoBytes, clock: nil, password: password, server: configuration)
        if watchExternalChanges { store.database.startWatchingExternalChanges(interval: .milliseconds(20)) }
        try server.start()
    }

    /// One request on its own connection, every byte under the test's control (`Endpoint`).
    func get(_ target: String, headers: [String: String] = [:]) throws -> Reply {
        try client.get(target, headers: headers)
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
