import HTTPServer
import WishlistCore

extension WishlistApp {
    /// The server for this app, as `wishlist serve` and the tests run it: `configuration`'s
    /// address, threads and logging, with the app's head checks, responder, error page and room
    /// for a photo upload.
    public func makeServer(_ configuration: Server.Configuration) throws -> Server {
        var configuration = configuration
        configuration.maxBodySize = maxBodySize
        configuration.headChecks = headChecks
        configuration.errorPage = errorPage(status:message:request:)
        let uploads = try DataFolder.uploads(besideDatabaseAt: store.database.path)
        configuration.uploadDirectory = uploads.path
        // An archive restored from the Data page streams to disk: the free disk bounds it, not the photo limit.
        configuration.multipartBodyLimit = { head in
            head.path == DataPage.importPath ? WishlistArchive.largestUpload(into: uploads) : nil
        }
        // The gazetteer answers one search at a time (~60 ms each, `PlaceSearch`).
        configuration.isSlow = { $0.path == PlaceRoutes.path }
        return Server(configuration: configuration, responder: try makeResponder())
    }

    /// What the server checks on each head before it reads the body or the responder sees the
    /// request. The host first, so a rebinding page learns nothing, not even whether a static file
    /// exists; then a script's API token; then a browser write's site, origin and token cookie
    /// (`CSRFProtection` checks the token itself in the chain, where the form's fields are).
    var headChecks: [any HeadCheck] {
        [HostValidation(additionalHosts: configuration.allowedHosts), bearerAuthentication, CSRFProtection()]
    }

    /// API tokens for `/api`, as the store keeps them (hashed).
    var bearerAuthentication: BearerAuthentication {
        BearerAuthentication(paths: ["/api"]) { [store] hash in try store.apiToken(secretHash: hash)?.name }
    }

    /// The largest request body the server reads: room for the photo plus the form's other
    /// fields. An archive uploaded on the Data page has its own (`WishlistArchive.largestUpload`).
    var maxBodySize: Int { configuration.maxPhotoBytes + 1024 * 1024 }
}
