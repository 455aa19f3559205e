import Foundation
import HTTPServer
import Mustache
import Persistence
import Synchronization
import WishlistCore

/// The tabs of the app, in tab-bar order.
enum Tab: String, CaseIterable, Sendable {
    case wishlist, trips, map, goals, search

    var label: String {
        switch self {
        case .wishlist: "Wishlist"
        case .trips: "Trips"
        case .map: "Map"
        case .goals: "Goals"
        case .search: "Search"
        }
    }

    var href: String {
        switch self {
        case .wishlist: "/"
        case .trips: "/trips"
        case .map: "/map"
        case .goals: "/goals"
        case .search: "/search"
        }
    }
}

extension Request {
    /// A GET from the page's script after an in-place action (the redirect it followed): it swaps
    /// the page's fragments in and needs nothing else (`X-Wishlist-Fragments: only`, app.js).
    var asksForFragmentsAlone: Bool {
        method == .get && headers["X-Wishlist-Fragments"] == "only"
    }
}

/// Renders screens inside the layout: adds what every page needs (tabs, CSRF token, live topics),
/// and keeps rendered pages while they are current (`cached`).
final class PageRenderer: Sendable {
    let templates: TemplateLibrary
    /// The session cookie when the server has a password: pages signed in with it offer to sign out.
    let sessionCookieName: String?
    private let store: WishlistStore
    private let staticPrefix: String
    private let stylesheet: Stylesheet
    private let cache: CommitScopedCache<String, KeptPage>
    /// Stand in for the viewer's CSRF token and the page's live-update token while rendering.
    /// Random per process, so that no name a user typed can contain them; `{` is rare in HTML,
    /// which keeps `SplicedBody`'s search fast.
    private let tokenPlaceholder: String
    private let sincePlaceholder = PageRenderer.placeholder("since")
    /// Where a page's fragments go: this, then the fragment's index and `}`.
    private let fragmentPlaceholderPrefix = String(PageRenderer.placeholder("fragment").dropLast()) + "-"
    /// Fragments drawn, kept while what they read is unchanged; pages and live updates share them.
    let fragments: TopicStore

    /// Pages kept: a few per screen and trip visited, at 15–115 KB each, in at most 3 MB: the seven
    /// screens and a hundred trip pages. Counted by pages alone, a load of pages each seen once
    /// left 200 of the largest held after it (Benchmarks/README.md, memory after the load run).
    static let cachedPageLimit = 200
    static let cachedPageBytes = 3 << 20
    /// Kept pages drawn (not served as kept), for tests.
    let drawnCount = Atomic<Int>(0)

    /// A page's own template rendered with its fragments as placeholders, by template and
    /// context: a page drawn again because a fragment changed (a check-off on a card of `/`, the
    /// progress on Goals) splices the new fragment into it instead of rendering its template again.
    private struct SkeletonKey: Hashable {
        let template: String
        let context: MustacheValue
    }
    private let skeletons = Mutex(LeastRecentlyUsed<SkeletonKey, SplicedBody>(capacity: cachedPageLimit, maxCost: 1 << 20))
    /// Page templates rendered (not taken as kept), for tests.
    let skeletonsDrawnCount = Atomic<Int>(0)

    /// A page as kept, with what the read it was drawn from depended on and when (nil: drawn
    /// again after any commit).
    private struct KeptPage: Sendable {
        var response: SharedResponse
        let read: (region: DatabaseRegion, generation: UInt64)?
    }

    /// `staticPrefix`: where the static files are at this version (`StaticFiles.versionedPrefix`),
    /// `{{static}}` in every template.
    init(templates: TemplateLibrary, sessionCookieName: String?, staticPrefix: String, stylesheet: Stylesheet, store: WishlistStore) {
        self.templates = templates
        self.staticPrefix = staticPrefix
        self.stylesheet = stylesheet
        self.sessionCookieName = sessionCookieName
        self.store = store
        let tokenPlaceholder = Self.placeholder("csrf")
        self.tokenPlaceholder = tokenPlaceholder
        fragments = TopicStore(database: store.database) { view in
            guard case .object(var fields) = view.mustacheValue else {
                preconditionFailure("\(type(of: view)) must render as an object")
            }
            fields["csrfToken"] = .string(tokenPlaceholder)
            fields["static"] = .string(staticPrefix)
            return SplicedBody(splitting: try templates.renderBytes(type(of: view).partial, .object(fields)),
                               at: [Array(tokenPlaceholder.utf8)])  // its one place: PageSlot.csrfToken
        }
        cache = CommitScopedCache(database: store.database, capacity: Self.cachedPageLimit, maxCost: Self.cachedPageBytes,
                                  cost: { $0.response.body.heldBytes })
    }

    private static func placeholder(_ name: String) -> String {
        "{\(name)-\(UInt64.random(in: .min ... .max))-\(UInt64.random(in: .min ... .max))}"
    }

    func page(
        _ template: String, for request: Request, tab: Tab?, status: HTTPStatus = .ok, _ context: [String: MustacheValue]
    ) throws -> Response {
        try render(template, for: request, tab: tab, status: status, context).response(for: request)
    }

    /// The page for `request` (a GET whose answer depends only on its URL and the database):
    /// `read` fetches what it shows in one snapshot, `draw` renders that. The page is kept. After
    /// a commit that changed nothing it read (no column, no row it read by id: a check-off in a
    /// trip it does not show), it is served as kept with the newer live token, without reading.
    /// Else it is read and drawn again, its unchanged fragments spliced in as kept
    /// (`TopicStore`). Errors thrown are not kept.
    func cached<Data>(
        _ request: Request, read: (WishlistSnapshot) throws -> Data, draw: (Data) throws -> SharedResponse
    ) throws -> Response {
        try cache.value(for: cacheKey(request)) { kept in
            if var kept, let read = kept.read, let token = store.database.tokenIfUnchanged(read.region, since: read.generation) {
                kept.response.liveSince = max(token, kept.response.liveSince ?? token)
                return kept
            }
            let (tracked, token) = try store.read { snapshot in (try snapshot.readTracking(read), try snapshot.historyToken()) }
            var response = try draw(tracked.value)
            drawnCount.add(1, ordering: .relaxed)
            response.liveSince = token
            return KeptPage(response: response, read: (tracked.region, tracked.generation))
        }.response.response(for: request)
    }

    /// An answer computed whole by `compute` (the JSON API's), kept until the next commit.
    func cached(_ request: Request, compute: () throws -> SharedResponse) throws -> Response {
        try cache.value(for: cacheKey(request)) { _ in KeptPage(response: try compute(), read: nil) }.response.response(for: request)
    }

    /// A page not kept (one showing a form's problems): `read` and the live token in one snapshot, then `draw`.
    func uncached<Data>(read: (WishlistSnapshot) throws -> Data, draw: (Data) throws -> SharedResponse) throws -> SharedResponse {
        let (data, since) = try store.read { snapshot in (try read(snapshot), try snapshot.historyToken()) }
        var response = try draw(data)
        response.liveSince = since
        return response
    }

    private func cacheKey(_ request: Request) -> String {
        "\(isSignedIn(request) ? "signed-in" : "anonymous")\(request.asksForFragmentsAlone ? " fragments" : "")"
            + "\(stylesheet.isHeld(by: request) ? "" : " inline-styles") \(request.path)?\(request.rawQuery)"
    }

    /// The fragments a page about to be drawn places (`FragmentPlaces.place`), for `render`.
    func fragmentPlaces() -> FragmentPlaces {
        FragmentPlaces(fragments, placeholderPrefix: fragmentPlaceholderPrefix)
    }

    /// The page rendered for any viewer: `SharedResponse.response(for:)` puts in the viewer's
    /// token, and the live token (`liveSince`) when `liveTopics` are given; the bytes of the
    /// `fragments` placed in `context` go where their placeholders are.
    /// With `savingForm` (the id of a form with fields not yet saved), the tabs submit that form
    /// and go on to their screen once it is saved, so leaving by them drops nothing.
    func render(
        _ template: String, for request: Request?, tab: Tab?, liveTopics: [LiveTopic] = [],
        status: HTTPStatus = .ok, savingForm: String? = nil, fragments: FragmentPlaces? = nil, _ context: [String: MustacheValue]
    ) throws -> SharedResponse {
        var context = context
        context["csrfToken"] = .string(tokenPlaceholder)
        context["static"] = .string(staticPrefix)
        let inlinesStylesheet = request?.asksForFragmentsAlone != true && !stylesheet.isHeld(by: request)
        if inlinesStylesheet { context["inlineStylesheet"] = .string(stylesheet.text) }
        context["canSignOut"] = .bool(isSignedIn(request))
        context["tabs"] = .array(Tab.allCases.map { item in
            ["id": .string(item.rawValue), "label": .string(item.label), "href": .string(item.href), "current": .bool(item == tab)]
        })
        if let savingForm { context["savingForm"] = .string(savingForm) }
        if !liveTopics.isEmpty {
            context["liveTopics"] = .string(liveTopics.map(\.id).joined(separator: " "))
            context["liveSince"] = .string(sincePlaceholder)
        }
        let placed = fragments?.bodies ?? []
        let page = request?.asksForFragmentsAlone == true
            ? fragmentsAlone(placing: placed.count)
            : try skeleton(template, .object(context), placing: placed.count)
        return SharedResponse(status: status, html: page.inserting(placed, atSlotsFrom: PageSlot.firstFragment), liveSince: nil,
                              cookie: inlinesStylesheet ? stylesheet.heldCookie : nil)
    }

    /// The places of `fragmentCount` fragments and nothing else: the answer to a script that
    /// swaps a page's fragments in after an in-place action, with no layout or template drawn.
    private func fragmentsAlone(placing fragmentCount: Int) -> SplicedBody {
        let places = (0..<fragmentCount).map { FragmentPlaces.placeholder($0, prefix: fragmentPlaceholderPrefix) }
        return SplicedBody(splitting: Array(places.joined().utf8), at: (slotPlaceholders + places).map { Array($0.utf8) })
    }

    /// `template` rendered with `context`, split at the token, live-token and fragment places
    /// (kept: the same context renders the same bytes).
    private func skeleton(_ template: String, _ context: MustacheValue, placing fragmentCount: Int) throws -> SplicedBody {
        let key = SkeletonKey(template: template, context: context)
        if let kept = skeletons.withLock({ $0.use(key) }) { return kept }
        let placeholders = slotPlaceholders
            + (0..<fragmentCount).map { FragmentPlaces.placeholder($0, prefix: fragmentPlaceholderPrefix) }
        let skeleton = SplicedBody(splitting: try templates.renderBytes(template, context), at: placeholders.map { Array($0.utf8) })
        skeletonsDrawnCount.add(1, ordering: .relaxed)
        skeletons.withLock { $0.insert(skeleton, cost: skeleton.heldBytes, for: key) }
        return skeleton
    }

    /// What stands in for each `PageSlot` while a page is rendered, in slot order.
    private var slotPlaceholders: [String] {
        PageSlot.allCases.map { slot in
            switch slot {
            case .csrfToken: tokenPlaceholder
            case .liveSince: sincePlaceholder
            }
        }
    }

    private func isSignedIn(_ request: Request?) -> Bool {
        guard let request, let sessionCookieName else { return false }
        return request.cookies[sessionCookieName] != nil
    }

    /// The fragment of `shown` as live updates send it, the same bytes for every viewer: its
    /// forms' tokens are left empty, and the page's script fills them in. Nil when its record is gone.
    func liveFragment<F: Fragment>(_ shown: FragmentRead<F>) throws -> LiveFragment? {
        try fragments.drawn(shown).map { drawn in
            LiveFragment(topic: shown.fragment.topic.id, target: drawn.elementID,
                         html: String(decoding: drawn.body.filled(with: [[]]), as: UTF8.self))  // no token: PageSlot.csrfToken empty
        }
    }

    func errorPage(status: HTTPStatus, message: String, request: Request?) -> Response {
        if let request, WishlistApp.answersJSON(request.path),
           let response = try? Response.json(APIError(error: .init(status: status.code, message: message)), status: status) {
            return response
        }
        let back = Self.referringPath(request)
        let context: [String: MustacheValue] = [
            "status": .int(status.code),
            "heading": .string(Self.heading(for: status)),
            "message": .string(message),
            "backURL": .string(back ?? "/"),
            "backLabel": .string(back == nil ? "Back to Wishlist" : "Go Back"),
        ]
        // An error sets no cookie of its own: a refused request (a foreign Host) is answered with nothing kept.
        guard var page = try? render("error", for: request, tab: nil, status: status, context) else {
            // Only if the template itself fails.
            return .text("\(status.code) \(Self.heading(for: status)): \(message)", status: status)
        }
        page.cookie = nil
        // Without a request (refused before it was read, such as an upload over the limit) there
        // is no viewer's token to put in; the error page has no form that needs one.
        return request.map(page.response(for:)) ?? .html(utf8: page.body.filled(with: page.fills(token: nil)), status: status)
    }

    /// The page of this site the person was on when they sent `request` (its `Referer`, which the
    /// same-origin referrer policy sends), so an error page links back to it; nil from elsewhere.
    static func referringPath(_ request: Request?) -> String? {
        guard let request, let referer = request.headers["Referer"].flatMap(URLComponents.init(string:)),
              let host = request.headers["Host"], referer.host.map({ $0 + (referer.port.map { ":\($0)" } ?? "") }) == host,
              referer.path != request.path || request.method != .get else { return nil }
        return localRedirectPath(referer.percentEncodedPath + (referer.percentEncodedQuery.map { "?" + $0 } ?? ""))
    }

    static func heading(for status: HTTPStatus) -> String {
        switch status.code {
        case 400: "That request didn’t make sense"
        case 403: "Request refused"
        case 404: "Not found"
        case 405: "Not allowed here"
        case 409: "Still being saved"
        case 412: "Changed elsewhere"
        case 401: "Please sign in"
        case 411: "Upload needs a length"
        case 413: "Upload too large"
        case 421: "Wrong address"
        case 422: "Please check your input"
        case 429: "Too many attempts"
        case 507: "The disk is full"
        case 500...: "Something went wrong"
        default: "Something went wrong"
        }
    }
}

/// The body of every JSON error: `{"error": {"status": 404, "message": "…"}}`.
struct APIError: Encodable {
    struct Detail: Encodable {
        let status: Int
        let message: String
    }
    let error: Detail
}
