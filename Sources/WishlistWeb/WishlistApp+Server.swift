import HTTPServer

extension WishlistApp {
    /// The server for this app, as `wishlist serve` and the tests run it: `configuration`'s
    /// address, threads and logging, with the app's responder, its error page and room for a
    /// photo upload.
    public func makeServer(_ configuration: Server.Configuration) throws -> Server {
        var configuration = configuration
        // Room for the photo plus the form's other fields.
        configuration.maxBodySize = self.configuration.maxPhotoBytes + 1024 * 1024
        configuration.errorPage = errorPage(status:message:request:)
        return Server(configuration: configuration, responder: try makeResponder())
    }
}
