import HTTPServer
import Mustache

/// The three tabs of the app, in tab-bar order.
enum Tab: String, CaseIterable, Sendable {
    case wishlist, goals, search

    var label: String {
        switch self {
        case .wishlist: "Wishlist"
        case .goals: "Goals"
        case .search: "Search"
        }
    }

    var href: String {
        switch self {
        case .wishlist: "/"
        case .goals: "/goals"
        case .search: "/search"
        }
    }
}

/// Renders screens inside the layout: adds what every page needs (tabs, CSRF token, live topics).
struct PageRenderer: Sendable {
    let templates: TemplateLibrary
    /// The session cookie when the server has a password: pages signed in with it offer to sign out.
    var sessionCookieName: String?

    func page(
        _ template: String, for request: Request, tab: Tab?, live: LiveSubscription? = nil,
        status: HTTPStatus = .ok, _ context: [String: MustacheValue]
    ) throws -> Response {
        var context = context
        context["csrfToken"] = .string(request.csrfToken ?? "")
        context["canSignOut"] = .bool(sessionCookieName.map { request.cookies[$0] != nil } ?? false)
        context["tabs"] = .array(Tab.allCases.map { item in
            ["id": .string(item.rawValue), "label": .string(item.label), "href": .string(item.href), "current": .bool(item == tab)]
        })
        if let live {
            context["liveTopics"] = .string(live.topics.joined(separator: " "))
            context["liveSince"] = .string(String(live.since))
        }
        var response = Response.html(utf8: try templates.renderBytes(template, .object(context)), status: status)
        // Pages show data that changes; let the browser revalidate rather than guess.
        response.headers["Cache-Control"] = "no-cache"
        return response
    }

    /// A partial rendered on its own, for live updates and in-place swaps. Forms inside carry
    /// no CSRF token: the page's script fills it in (fragments are shared between viewers).
    func fragment(_ partial: String, _ context: [String: MustacheValue]) throws -> String {
        try templates.render(partial, .object(context))
    }

    func errorPage(status: HTTPStatus, message: String, request: Request?) -> Response {
        if let request, request.path.hasPrefix("/api/"),
           let response = try? Response.json(APIError(error: .init(status: status.code, message: message)), status: status) {
            return response
        }
        let context: [String: MustacheValue] = [
            "status": .int(status.code),
            "heading": .string(Self.heading(for: status)),
            "message": .string(message),
            "backURL": "/",
            "backLabel": "Back to Wishlist",
        ]
        let tab: Tab? = nil
        if let request, let response = try? page("error", for: request, tab: tab, status: status, context) {
            return response
        }
        // Without a request (or if the template itself fails) fall back to plain text.
        return .text("\(status.code) \(Self.heading(for: status)): \(message)", status: status)
    }

    static func heading(for status: HTTPStatus) -> String {
        switch status.code {
        case 400: "That request didn’t make sense"
        case 403: "Request refused"
        case 404: "Not found"
        case 405: "Not allowed here"
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
