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
        try FileManager.default.createDirectory(atPath: invocation.dataDirectory, withIntermediateDirectories: true)
        let store = try WishlistStore(path: invocation.databasePath)
        store.database.startWatchingExternalChanges()

        var webConfiguration = WishlistApp.Configuration(resourcesDirectory: resources)
        webConfiguration.reloadTemplates = invocation.reload
        webConfiguration.allowedHosts = invocation.allowedHosts + policy.extraHosts
        webConfiguration.password = policy.password
        webConfiguration.maxPhotoBytes = invocation.maxPhotoMegabytes * 1024 * 1024
        let app = try WishlistApp(store: store, configuration: webConfiguration)

        var configuration = Server.Configuration(host: invocation.host, port: Int(invocation.port))
        // Room for the photo plus the form's other fields.
        configuration.maxBodySize = webConfiguration.maxPhotoBytes + 1024 * 1024
        configuration.errorPage = { status, message, request in app.errorPage(status: status, message: message, request: request) }
        let server = Server(configuration: configuration, responder: try app.makeResponder())
        try server.start()
        let shownHost = invocation.host.contains(":") ? "[\(invocation.host)]" : invocation.host
        // Written unbuffered so a log file or pipe sees it at once.
        FileHandle.standardOutput.write(Data("Wishlist is ready at http://\(shownHost):\(server.port)/\n".utf8))
        server.runUntilSignal()
        app.shutdown()
        store.database.close()
    }
}
