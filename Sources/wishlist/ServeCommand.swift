import CMalloc
import Foundation
import HTTPServer
import WishlistCore
import WishlistWeb

/// `wishlist serve`: opens the data directory, builds the app and serves it until SIGINT/SIGTERM.
struct ServeCommand {
    let invocation: Invocation

    func run() throws {
        let policy = try ListenPolicy(host: invocation.host, environment: ProcessInfo.processInfo.environment)
        let resources = URL(fileURLWithPath: invocation.resourcesDirectory)
        for folder in ["Templates", "Public"] where !FileManager.default.fileExists(atPath: resources.appendingPathComponent(folder).path) {
            throw Invocation.UsageError(description: "There is no \(folder)/ folder in \(resources.path). Run from the project folder or pass --resources DIR.")
        }
        // The port first: a port in use must fail the start before the data folder is created or seeded.
        let listener = try ListeningSocket(host: invocation.host, port: Int(invocation.port))
        let lock = try DataFolderLock(folder: invocation.dataDirectory, command: "serve")
        // Left by a process killed mid-write; nothing else writes here while the lock is ours.
        let leftovers = DataFolder.sweepTemporaries(besideDatabaseAt: invocation.databasePath)
        if !leftovers.isEmpty { Self.log("Removed \(leftovers.count) temporary file(s) left by an interrupted run: \(leftovers.joined(separator: ", ")).") }
        let tls = try TLSSetup.configuration(for: invocation)
        let maxPhotoBytes = invocation.maxPhotoMegabytes * 1024 * 1024
        let store = try DamagedDatabase.explained(invocation) {
            try WishlistStore(path: invocation.databasePath, photoLimits: PhotoLimits(maxBytes: maxPhotoBytes))
        }
        store.database.startWatchingExternalChanges()
        // A person waits about a second for an import's write lock, then hears it is busy (503).
        try store.database.setWriteBusyTimeout(.seconds(1))

        var webConfiguration = WishlistApp.Configuration(resourcesDirectory: resources)
        webConfiguration.reloadTemplates = invocation.reload
        webConfiguration.allowedHosts = invocation.allowedHosts + policy.extraHosts
        webConfiguration.password = policy.password
        webConfiguration.maxPhotoBytes = maxPhotoBytes
        let app = try WishlistApp(store: store, configuration: webConfiguration)

        var configuration = Server.Configuration(host: invocation.host, port: Int(invocation.port))
        // Off by default: one `write` per request was a tenth of a cached page's cost, and a
        // one-person app's terminal needs no traffic log.
        configuration.accessLog = invocation.accessLog
        if let streams = invocation.maxLiveStreams {
            configuration.eventStreamLimits.maxStreams = streams
            configuration.eventStreamLimits.maxStreamsPerAddress = streams
            // Each stream is a connection: one address may then hold them all, and a few more.
            configuration.maxConnectionsPerAddress = max(configuration.maxConnectionsPerAddress, streams + 64)
        }
        configuration.tls = tls
        let server = try app.makeServer(configuration)
        try server.start(listeningOn: listener)
        // Written unbuffered so a log file or pipe sees it at once. The fingerprint first: the owner
        // compares it with the browser's before typing the password into a self-signed page.
        if let fingerprint = try tls?.fingerprint() {
            FileHandle.standardOutput.write(Data("TLS certificate SHA-256 fingerprint: \(fingerprint)\n".utf8))
        }
        FileHandle.standardOutput.write(Data("Wishlist is ready at \(invocation.origin(port: server.port))/\n".utf8))
        DispatchQueue.global(qos: .utility).async { Self.sweepPhotos(of: store) }
        // A burst of requests leaves SQLite's page caches and glibc's per-thread arenas full
        // (Benchmarks/README.md); once the server is quiet, give that back. Serving again refills the caches.
        let memoryRelease = QuietPeriodWatch(server: server, period: .seconds(2)) {
            store.database.releaseMemory()
            malloc_trim(0)
        }
        server.runUntilSignal()
        memoryRelease.cancel()
        app.shutdown()
        store.database.close()
        lock.release()
    }

    /// Removes photo files a crash or an import left behind and reports rows whose file is gone.
    private static func sweepPhotos(of store: WishlistStore) {
        do {
            let sweep = try store.sweepPhotos()
            if sweep.isDeferred {
                log("The photo sweep waits for the next start: another process is storing photos in \(store.photos.directory.path).")
            }
            if !sweep.removedFiles.isEmpty {
                log("Removed \(sweep.removedFiles.count) unreferenced photo file(s) from \(store.photos.directory.path).")
            }
            for name in sweep.missingFiles {
                log("Photo file \(name) is missing from \(store.photos.directory.path); its trip shows the placeholder.")
            }
        } catch {
            log("The photo sweep failed: \(error)")
        }
    }

    private static func log(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
