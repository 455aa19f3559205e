import HTTPServer

/// The one stylesheet every page uses, delivered so that no first paint waits a round trip for
/// it: a browser that has never had it gets it inside the page (a `<style>` the Content Security
/// Policy names by hash) and a cookie saying it now holds it, fetched into its cache meanwhile
/// (`rel=prefetch`); every later page links the cached file. The cookie names the static files'
/// version, so a new stylesheet is put inline once again.
struct Stylesheet: Sendable {
    static let cookieName = "stylesheet"

    let text: String
    let version: String

    init(_ files: StaticFiles, name: String) {
        text = files.text(of: name) ?? ""
        version = files.version
    }

    /// Whether `request`'s browser holds this stylesheet in its cache.
    func isHeld(by request: Request?) -> Bool {
        request?.cookies[Self.cookieName] == version
    }

    /// Set with the page that put the stylesheet inline. Not secret, and read by no script.
    var heldCookie: Cookie {
        Cookie(name: Self.cookieName, value: version, maxAge: 31_536_000, httpOnly: true, sameSite: .lax)
    }
}
