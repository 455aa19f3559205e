import Testing
import HTTPServer

/// A form's `return` target may name only a path on this site.
@Suite struct LocalRedirectTests {
    @Test(arguments: ["/trips/3", "/goals?sort=title", "/search?q=a%2F%2Fb"])
    func pathsOnThisSiteAreKept(_ path: String) {
        #expect(localRedirectPath(path) == path)
    }

    /// Browsers drop tabs and newlines from a URL and read a backslash as a slash, so each of
    /// these would become `//evil.example`: another origin.
    @Test(arguments: ["//evil.example", "/\t/evil.example", "/\n/evil.example", "/\r/evil.example",
                      "/\\evil.example", "\\/evil.example", "/\u{0}/evil.example", "/\u{7F}", "https://evil.example",
                      "evil.example", ""])
    func anythingABrowserCouldTurnIntoAnotherOriginIsRefused(_ target: String) {
        #expect(localRedirectPath(target) == nil)
    }
}
