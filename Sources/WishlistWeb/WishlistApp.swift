import Foundation
import HTTPServer
import Mustache
import WishlistCore

/// Everything the web layer needs, built once at startup and shared by every screen.
public final class WishlistApp: Sendable {
    public struct Configuration: Sendable {
        /// The folder holding `Templates/` and `Public/`.
        public var resourcesDirectory: URL
        /// Re-read changed templates on each render (development).
        public var reloadTemplates = false
        /// Host names answered besides localhost, 127.0.0.1 and [::1] (DNS-rebinding defence).
        public var allowedHosts: [String] = []
        /// The largest photo upload accepted, in bytes.
        public var maxPhotoBytes = 30 * 1024 * 1024
        /// When set, every page needs a session from the login page (required beyond loopback).
        public var password: String?
        /// Sessions and the limit on wrong passwords, when `password` is set.
        public var passwordOptions = PasswordProtection.Options()
        /// How long a download's reader may take nothing before the download is given up
        /// (`PipedBody`): what it holds (a thread, the export's turn) is let go then.
        public var stallTimeout = PipedBody.defaultStallTimeout

        public init(resourcesDirectory: URL) {
            self.resourcesDirectory = resourcesDirectory
            passwordOptions.sessionCookieName = "wishlist_session"
        }
    }

    let store: WishlistStore
    let configuration: Configuration
    let pages: PageRenderer
    let live: LiveUpdates
    let staticFiles: StaticFiles
    /// The Content Security Policy and the other hardening headers, on every answer.
    let securityHeaders: SecurityHeaders
    /// A write sent again with its key (kept offline, its answer lost) is written once.
    let idempotentWrites: IdempotentWrites

    /// The one stylesheet and the one script every page links, each made of these files in this
    /// order at start (a page's own script, such as the map's, comes apart).
    static let stylesheetBundle = StaticFiles.Bundle("css/wishlist.css", of: [
        "css/theme.css", "css/app.css", "css/cards.css", "css/carousel.css", "css/forms.css", "css/alerts.css", "css/trips.css", "css/gallery.css",
    ])
    static let scriptBundle = StaticFiles.Bundle("js/wishlist.js", of: [
        "js/offline.js", "js/app.js", "js/carousel.js", "js/photo-field.js", "js/place-field.js", "js/search.js", "js/gallery-upload.js", "js/gallery-viewer.js", "js/gallery-order.js",
    ])

    public init(store: WishlistStore, configuration: Configuration) throws {
        self.store = store
        self.configuration = configuration
        let templates = try TemplateLibrary(
            directory: configuration.resourcesDirectory.appendingPathComponent("Templates"),
            reload: configuration.reloadTemplates)
        staticFiles = try StaticFiles(root: configuration.resourcesDirectory.appendingPathComponent("Public").path, prefix: "/static/",
                                      bundles: [Self.stylesheetBundle, Self.scriptBundle])
        idempotentWrites = IdempotentWrites(store: store)
        let stylesheet = Stylesheet(staticFiles, name: Self.stylesheetBundle.name)
        securityHeaders = SecurityHeaders(contentSecurityPolicy: SecurityHeaders.contentSecurityPolicy(
            styleHashes: [staticFiles.contentHash(of: Self.stylesheetBundle.name)].compactMap { $0 }))
        self.pages = PageRenderer(templates: templates,
                                  sessionCookieName: configuration.password == nil ? nil : configuration.passwordOptions.sessionCookieName,
                                  staticPrefix: staticFiles.versionedPrefix, stylesheet: stylesheet, store: store)
        self.live = LiveUpdates(store: store, pages: pages)
    }

    /// The router behind the security middleware: every screen registers its routes here.
    public func makeRouter() -> Router {
        var router = Router()
        WishlistPage(app: self).register(on: &router)
        CollectionPage(app: self).register(on: &router)
        GoalsPage(app: self).register(on: &router)
        SearchPage(app: self).register(on: &router)
        TripsPage(app: self).register(on: &router)
        MapPage(app: self).register(on: &router)
        NewTripPage(app: self).register(on: &router)
        PlaceRoutes(app: self).register(on: &router)
        TripPage(app: self).register(on: &router)
        PhotoPage(app: self).register(on: &router)
        UndoRoutes(app: self).register(on: &router)
        PhotoRoutes(app: self).register(on: &router)
        CalendarRoutes(app: self).register(on: &router)
        PlaceExportRoutes(app: self).register(on: &router)
        APIRoutes(app: self).register(on: &router)
        APIWriteRoutes(app: self).register(on: &router)
        APIPhotoRoutes(app: self).register(on: &router)
        HistoryRoutes(app: self).register(on: &router)
        DataPage(app: self).register(on: &router)
        OfflineRoutes(app: self).register(on: &router)
        live.register(on: &router)
        // Browsers ask for it whatever the page links; the icon is an SVG among the static files.
        router.page("/favicon.ico") { _ in .redirect(to: self.staticFiles.versionedPrefix + "images/favicon.svg") }
        return router
    }

    /// The whole request pipeline, outermost first, behind the server's `headChecks`. Security
    /// headers go on every answer, the refusals below included.
    /// With a password, only the login page and static files are served without a session.
    /// Errors of the screens become pages innermost, with the viewer's CSRF token and session
    /// (so Sign Out works from them); the middleware's own refusals reach the server's page.

    public func makeResponder() throws -> Handler {
        let router = makeRouter()
        let loginPath = configuration.passwordOptions.loginPath
        var middleware: [any Middleware] = [
            securityHeaders,
            // Only the screens open from links elsewhere: the API, the feed, live events, photos,
            // exports and the static files answer this site's own pages alone.
            CrossSiteReadProtection(openPages: { path in router.isPage(path) || path == loginPath }),
            staticFiles,
            // Before the password: a calendar app cannot sign in; its secret opens its feed alone.
            CalendarFeeds(store: store),
            bearerAuthentication,
            CSRFProtection(),
        ]
        if let password = configuration.password {
            let loginPage = LoginPage(pages: pages)
            middleware.append(PasswordProtection(password: password, options: configuration.passwordOptions,
                                                 loginPage: loginPage.render))
        }
        middleware.append(ErrorPages(render: errorPage(status:message:request:)))
        middleware.append(idempotentWrites)
        return chain(middleware, to: router.respond(to:))
    }

    /// The app's error page for an error raised anywhere, inside the chain or by the server
    /// (give it to `Server.Configuration.errorPage`), with the security headers even when the
    /// server refused the request before the middleware saw it.
    public func errorPage(status: HTTPStatus, message: String, request: Request?) -> Response {
        // Only a photo makes a body this large; the server's own limit adds room for the other fields.
        let message = message == HTTPError.bodyTooLarge(limit: maxBodySize).message
            ? PhotoProblem.uploadTooLarge(limit: configuration.maxPhotoBytes).message
            : message
        return securityHeaders.applied(to: pages.errorPage(status: status, message: message, request: request))
    }

    /// Whether `path` is one of the app's JSON surfaces, the API and the place search: their
    /// errors, wherever raised, answer as JSON too.
    static func answersJSON(_ path: String) -> Bool {
        path.hasPrefix("/api/") || path == PlaceRoutes.path
    }

    public func shutdown() {
        live.stop()
    }
}
