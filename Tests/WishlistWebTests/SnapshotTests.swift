import Foundation
import HTTPServer
import Testing
import TestSupport
@testable import WishlistWeb

/// Whole responses (status, headers, body) over the seed on a fixed clock, compared byte for
/// byte with the files in Snapshots/. `UPDATE_SNAPSHOTS=1 swift test --filter SnapshotTests`
/// rewrites them after an intended change; review the diff before committing it.
@Suite struct SnapshotTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

    @Test(arguments: [("goals", "/goals"), ("api-trip", "/api/trips/1"), ("not-found", "/no/such/page")])
    func theResponseIsAsRecorded(name: String, target: String) throws {
        let app = try AppHarness()
        // A browser that holds the stylesheet: a first visit gets it inline (StylesheetTests).
        let files = app.app.staticFiles
        let text = Self.normalized(try app.client.get(target, headers: ["Cookie": "\(Stylesheet.cookieName)=\(files.version)"]))
            // The static files' version moves with every change to one of them.
            .replacingOccurrences(of: files.versionedPrefix, with: "/static/{version}/")
            .replacingOccurrences(of: files.contentHash(of: WishlistApp.stylesheetBundle.name)!, with: "{stylesheet-hash}")
        let file = Self.directory.appendingPathComponent(name + ".txt")
        if ProcessInfo.processInfo.environment["UPDATE_SNAPSHOTS"] == "1" {
            try Data(text.utf8).write(to: file)
            return
        }
        let recorded = try String(contentsOf: file, encoding: .utf8)
        #expect(text == recorded, "GET \(target) differs from Snapshots/\(name).txt (UPDATE_SNAPSHOTS=1 rewrites it)")
    }

    /// The reply as text, its CSRF token (new for each visitor) replaced by a placeholder.
    static func normalized(_ reply: Reply) -> String {
        let head = ["\(reply.status)"] + reply.headers.map { "\($0.name): \($0.value)" }
        var text = head.joined(separator: "\n") + "\n\n" + reply.text
        if let token = reply.cookie(CSRFProtection.cookieName) {
            text = text.replacingOccurrences(of: token, with: "{csrf-token}")
        }
        return text
    }
}
