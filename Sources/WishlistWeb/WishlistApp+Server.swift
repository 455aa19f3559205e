import HTTPServer

extension WishlistApp {
    /// The server for this app, as `wishlist serve` and the tests run it: `configuration`'s
    /// address, threads and logging, with the app's responder, its error page and room for a
    /// photo upload.
    public func makeServer(_ configuration: Server.Configuration) throws -> Server {
        var configuration = configuration
        configuration.maxBodySize = maxBodySize
        configuration.errorPage = errorPage(status:message:request:)
        return Server(configuration: configuration, responder: try makeResponder())
    }

    /// The largest request body the server reads: room for the photo plus the form's other
    /// fields. It bounds an archive uploaded on the Data page too (larger ones: `wishlist import`).
    var maxBodySize: Int { configuration.maxPhotoBytes + 1024 * 1024 }
}
