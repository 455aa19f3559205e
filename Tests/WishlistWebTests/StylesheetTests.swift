import Foundation
import HTTPServer
import Testing
import TestSupport
@testable import WishlistWeb

/// A first visit's page carries the stylesheet inline, allowed by its hash alone, and a cookie
/// saying the browser now holds the file; a later one links the file, cached for good.
@Suite struct StylesheetTests {
    @Test func aFirstVisitGetsTheStylesheetInlineAndALaterOneLinksIt() throws {
        let fixture = try AppHarness()
        let files = fixture.app.staticFiles
        let stylesheet = try #require(files.text(of: WishlistApp.stylesheetBundle.name))

        let first = try fixture.client.get("/goals")
        #expect(first.text.contains("<style>\(stylesheet)</style>"))
        let policy = try #require(first.header("Content-Security-Policy"))
        let hash = try #require(files.contentHash(of: WishlistApp.stylesheetBundle.name))
        #expect(policy.contains("style-src 'self' 'sha256-\(hash)';") && !policy.contains("unsafe-inline"))
        #expect(Data(base64Encoded: hash)?.count == 32)
        let cookie = try #require(first.cookie(Stylesheet.cookieName))
        #expect(cookie == files.version)

        let later = try fixture.client.get("/goals", headers: ["Cookie": "\(Stylesheet.cookieName)=\(cookie)"])
        #expect(!later.text.contains("<style>"))
        #expect(later.text.contains(#"<link rel="stylesheet" href="\#(files.versionedPrefix)css/wishlist.css">"#))
        #expect(later.cookie(Stylesheet.cookieName) == nil)

        let stale = try fixture.client.get("/goals", headers: ["Cookie": "\(Stylesheet.cookieName)=0123456789"])
        #expect(stale.text.contains("<style>"), "a stylesheet of another version is not the one cached")
    }

    /// Put inline, a stylesheet resolves URLs against the page: it names no file, only data.
    @Test func theStylesheetNamesNoFile() throws {
        let fixture = try AppHarness()
        let stylesheet = try #require(fixture.app.staticFiles.text(of: WishlistApp.stylesheetBundle.name))
        let urls = stylesheet.matches(of: /url\(\s*["']?([^"')]*)/).map { String($0.1) }
        #expect(!urls.isEmpty && urls.allSatisfy { $0.hasPrefix("data:") }, "\(urls.filter { !$0.hasPrefix("data:") })")
    }
}
