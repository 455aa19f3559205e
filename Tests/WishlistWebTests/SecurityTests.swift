import Foundation
import HTTPServer
import Testing
import TestSupport
@testable import WishlistCore
@testable import WishlistWeb

/// The app's promises against a hostile web page, proven on every route the router lists, so a
/// route added later is covered without touching this file.
@Suite struct SecurityTests {
    static let foreignHosts = ["evil.example", "evil.example:8080", "127.0.0.1.evil.example", "localhost.evil.example"]

    /// A form body that would change something on any route the protection let through.
    static let forgedForm = [("name", "Forged"), ("subtitle", "Forged"), ("collection", TripCollection.summerVibes.rawValue),
                             ("complete", "true"), ("sort", ActivitySortOrder.allCases.last!.rawValue)]

    /// A form with a small file part: the protection must refuse before any upload is kept.
    static func multipart(_ fields: [(String, String)]) -> (contentType: String, body: [UInt8]) {
        SocketClient.multipart(fields, photo: ("a.jpg", Array(repeating: UInt8(ascii: "x"), count: 2_000)))
    }

    static func urlEncoded(_ fields: [(String, String)]) -> [UInt8] {
        Array(SocketClient.formEncode(fields).utf8)
    }

    // MARK: DNS rebinding

    @Test func everyRouteAndStaticFileRefusesAForeignHostWithoutData() throws {
        let fixture = try AppHarness(maxPhotoBytes: AppHarness.securityPhotoLimit)
        let before = try fixture.snapshot()
        let token = try fixture.csrfToken()
        let tripName = try #require(try fixture.store.trip(id: 1)).name
        let targets = fixture.routes.map { ($0.method.rawValue, $0.target) }
            + [("GET", "/static/css/app.css"), ("GET", "/static/js/app.js"), ("GET", "/no/such/page")]
        #expect(targets.contains { $0.1.hasPrefix("/api/") } && targets.contains { $0.1.hasPrefix("/events?") })
        for (method, target) in targets {
            for host in Self.foreignHosts {
                // A valid token too: the host check must come first whatever else the request gets right.
                let client = InProcessEndpoint(server: fixture.server, host: host)
                let headers = ["Cookie": "\(CSRFProtection.cookieName)=\(token)", "Content-Type": "application/x-www-form-urlencoded"]
                let body = method == "GET" ? [] : Self.urlEncoded(Self.forgedForm + [("_csrf", token)])
                let reply = try client.send(method, target, headers: method == "GET" ? [:] : headers, body: body)
                #expect(reply.status == 421, "\(method) \(target) for Host \(host)")
                #expect(!reply.text.contains(tripName) && !reply.text.contains(token), "\(method) \(target) leaks data")
                #expect(reply.header("Set-Cookie") == nil)
                #expect(reply.header("Content-Type")?.contains("event-stream") != true)
            }
        }
        // No Host at all (HTTP/1.0) is not this server either.
        let bare = try InProcessEndpoint(server: fixture.server, host: nil).get("/api/trips")
        #expect(bare.status == 421 && !bare.text.contains(tripName))
        #expect(try fixture.snapshot() == before)
    }

    // MARK: CSRF

    @Test func everyStateChangingRouteRefusesForgedRequestsAndChangesNothing() throws {
        let fixture = try LiveServer(maxPhotoBytes: AppHarness.securityPhotoLimit)
        let unsafe = fixture.routes.filter { $0.method.isUnsafe }
        #expect(unsafe.count >= 8)
        let before = try fixture.snapshot()
        let token = try fixture.csrfToken()
        let otherToken = try fixture.csrfToken()
        let client = Endpoint(port: fixture.port)
        let cookie = ["Cookie": "\(CSRFProtection.cookieName)=\(token)"]
        let urlEncoded = ["Content-Type": "application/x-www-form-urlencoded"]
        let valid = Self.urlEncoded(Self.forgedForm + [("_csrf", token)])
        let forged: [(label: String, headers: [String: String], body: [UInt8])] = [
            ("no token", urlEncoded, Self.urlEncoded(Self.forgedForm)),
            ("cookie but no field", urlEncoded.merging(cookie) { $1 }, Self.urlEncoded(Self.forgedForm)),
            ("another client's token", urlEncoded.merging(cookie) { $1 }, Self.urlEncoded(Self.forgedForm + [("_csrf", otherToken)])),
            ("field but no cookie", urlEncoded, valid),
            ("header token but no cookie", urlEncoded.merging([CSRFProtection.headerName: token]) { $1 }, Self.urlEncoded(Self.forgedForm)),
            ("cross-site", urlEncoded.merging(cookie) { $1 }.merging(["Sec-Fetch-Site": "cross-site"]) { $1 }, valid),
            ("same-site", urlEncoded.merging(cookie) { $1 }.merging(["Sec-Fetch-Site": "same-site"]) { $1 }, valid),
            ("foreign Origin", urlEncoded.merging(cookie) { $1 }.merging(["Origin": "http://evil.example"]) { $1 }, valid),
            ("opaque Origin", urlEncoded.merging(cookie) { $1 }.merging(["Origin": "null"]) { $1 }, valid),
            ("multipart upload without token", ["Content-Type": Self.multipart(Self.forgedForm).contentType],
             Self.multipart(Self.forgedForm).body),
            ("multipart upload, cross-site", ["Content-Type": Self.multipart([]).contentType, "Sec-Fetch-Site": "cross-site"]
                .merging(cookie) { $1 }, Self.multipart(Self.forgedForm + [("_csrf", token)]).body),
        ]
        for route in unsafe {
            for attempt in forged {
                let reply = try client.send(route.method.rawValue, route.target, headers: attempt.headers, body: attempt.body)
                #expect(reply.status == 403, "\(route.method.rawValue) \(route.pattern): \(attempt.label) → \(reply.status)")
            }
        }
        #expect(try fixture.snapshot() == before)

        // The control: the same requests with the token and nothing forged get past the check,
        // so each refusal above was the protection's doing.
        for route in unsafe {
            let reply = try client.send(route.method.rawValue, route.target, headers: urlEncoded.merging(cookie) { $1 }, body: valid)
            #expect(reply.status != 403, "\(route.method.rawValue) \(route.pattern) refused a valid request")
        }
        #expect(try fixture.snapshot() != before)
    }

    // MARK: Headers

    @Test func everyKindOfResponseCarriesTheSecurityHeaders() throws {
        let fixture = try LiveServer(maxPhotoBytes: AppHarness.securityPhotoLimit)
        let client = Endpoint(port: fixture.port)
        let token = try fixture.csrfToken()
        let replies: [(String, Reply)] = [
            ("page", try client.get("/")),
            ("error page", try client.get("/trips/999999")),
            ("JSON", try client.get("/api/trips")),
            ("JSON error", try client.get("/api/trips/999999")),
            ("static file", try client.get("/static/css/app.css")),
            ("event stream", try client.exchange(Array("GET /events?topics=\(LiveTopic.achievedGoals.id) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8), expectBody: false)),
            ("redirect", try client.post("/preferences/activity-sort", form: [("sort", "title")], token: token)),
            ("foreign host", try Endpoint(port: fixture.port, host: "evil.example").get("/")),
            ("CSRF refusal", try client.post("/trips", form: [("name", "x")], token: nil)),
            ("wrong method", try client.send("PUT", "/", headers: ["Cookie": "\(CSRFProtection.cookieName)=\(token)", CSRFProtection.headerName: token])),
            ("too large, refused before reading", try client.send("POST", "/trips", headers: ["Content-Length": "\(50 * 1024 * 1024)"])),
            ("undecodable address", try client.get("/trips/%FF")),
        ]
        for (kind, reply) in replies {
            let policy = try #require(reply.header("Content-Security-Policy"), "\(kind) has no CSP")
            #expect(policy.contains("frame-ancestors 'none'") && policy.contains("script-src 'self'")
                    && policy.contains("style-src 'self'") && policy.contains("object-src 'none'"), "\(kind): \(policy)")
            #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"), "\(kind): \(policy)")
            #expect(reply.header("X-Content-Type-Options") == "nosniff", "\(kind)")
            #expect(reply.header("Referrer-Policy") == "same-origin", "\(kind)")
            for name in ["Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "X-Frame-Options"] {
                #expect(reply.headers.filter { $0.name.lowercased() == name.lowercased() }.count == 1, "\(kind): \(name) once")
            }
        }
    }

    /// The CSP forbids inline script and style, so no template may rely on them.
    @Test func templatesUseNoInlineScriptStyleOrHandlers() throws {
        let folder = LiveServer.resources.appendingPathComponent("Templates")
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".mustache") }
        #expect(files.count >= 10)
        let forbidden = [
            ("an inline style attribute", #"\sstyle\s*="#),
            // But the one stylesheet a first visit gets inline, which the policy names by hash (Stylesheet.swift).
            ("a <style> block", #"<style[\s>](?!\{\{\{inlineStylesheet\}\}\}</style>)"#),
            ("an inline <script> block", #"<script(?![^>]*\ssrc=)[^>]*>"#),
            ("an event handler attribute", #"\son[a-z]+\s*="#),
            ("a javascript: URL", #"javascript:"#),
        ]
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for (what, pattern) in forbidden {
                #expect(text.range(of: pattern, options: [.regularExpression, .caseInsensitive]) == nil, "\(file) has \(what)")
            }
        }
    }

    // MARK: Escaping

    static let scriptBreaker = "</script><img src=x onerror=alert(1)>"
    static let attributeBreaker = "\"><svg onload=alert(1)>"
    /// Text that only appears if a payload reached the page unescaped.
    static let rawMarkup = ["<img src=x", "<svg onload", "</script><img"]

    @Test func hostileNamesAreEscapedInEveryView() throws {
        let fixture = try AppHarness(maxPhotoBytes: AppHarness.securityPhotoLimit)
        let store = fixture.store
        let tripID = try store.addTrip(TripDraft(name: Self.scriptBreaker, subtitle: Self.attributeBreaker, collection: .summerVibes))
        let otherID = try store.addTrip(TripDraft(name: Self.attributeBreaker, subtitle: nil, collection: .summerVibes))
        let activityID = try store.addActivity(tripID: tripID, name: Self.scriptBreaker)
        _ = try store.addActivity(tripID: otherID, name: Self.attributeBreaker)
        let client = fixture.client
        let pages = ["/trips/\(tripID)", "/trips/\(tripID)?edit=1", "/trips/\(otherID)?edit=1", "/",
                     "/collections/\(TripCollection.summerVibes.rawValue)", "/search?q=script", "/search?q=svg",
                     "/search?q=onerror", "/trips/\(tripID)/delete", "/activities/\(activityID)/delete"]
        for page in pages {
            let reply = try client.get(page)
            #expect(reply.status == 200, "\(page)")
            for markup in Self.rawMarkup { #expect(!reply.text.contains(markup), "\(page) has raw \(markup)") }
            #expect(reply.text.contains("&lt;img src=x onerror=alert(1)&gt;") || reply.text.contains("svg</mark> onload=alert(1)&gt;")
                    || reply.text.contains("&quot;&gt;&lt;svg onload=alert(1)&gt;"), "\(page) lost the name")
        }
        // In an attribute the quote is escaped too, so the value cannot end early.
        let edit = try client.get("/trips/\(otherID)?edit=1").text
        #expect(edit.contains("value=\"&quot;&gt;&lt;svg onload=alert(1)&gt;\""))
        // Highlighting splits the name, and every piece stays escaped.
        #expect(try client.get("/search?q=script").text.contains("&lt;/<mark>script</mark>&gt;&lt;img"))

        // JSON carries the exact text, as data, never as markup a browser would run.
        let json = try client.get("/api/trips/\(tripID)")
        #expect(json.header("Content-Type") == "application/json")
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(json.body)) as? [String: Any])
        let trip = try #require(decoded["trip"] as? [String: Any])
        #expect(trip["name"] as? String == Self.scriptBreaker && trip["subtitle"] as? String == Self.attributeBreaker)
        #expect(!json.text.contains("</script>"))
        let search = try client.get("/api/search?q=svg")
        #expect(search.text.contains("onload=alert(1)") && !search.text.contains("</"))
    }

    @Test func hostileNamesTravelAsEscapedDataInEventStreams() throws {
        let fixture = try LiveServer(maxPhotoBytes: AppHarness.securityPhotoLimit)
        let tripID = try fixture.store.addTrip(TripDraft(name: "Quiet", subtitle: nil, collection: .winterRetreats))
        let topics = [LiveTopic.tripHeader(tripID: tripID), .activityList(tripID: tripID, editing: false)].map(\.id).joined(separator: "+")
        let stream = try SocketClient.openEvents("/events?topics=\(topics)", port: fixture.port)
        _ = try stream.nextEvent(named: "ready")
        try fixture.store.updateTrip(id: tripID, draft: TripDraft(name: Self.scriptBreaker, subtitle: Self.attributeBreaker,
                                                                   collection: .winterRetreats))
        while try !stream.nextEvent().data.contains("onerror") {}
        let text = stream.streamReceived
        for markup in Self.rawMarkup { #expect(!text.contains(markup)) }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        let fields = ["id:", "event:", "data:", "retry:", ":"]
        for line in lines { #expect(fields.contains { line.hasPrefix($0) }, "stray stream line: \(line)") }
        // Each fragment is one JSON object whose HTML escapes the name.
        let data = try #require(lines.last { $0.hasPrefix("data: {") && $0.contains("onerror") })
        let fragment = try #require(try JSONSerialization.jsonObject(with: Data(data.dropFirst(6).utf8)) as? [String: Any])
        let html = try #require(fragment.values.compactMap { $0 as? String }.first { $0.contains("onerror") })
        #expect(html.contains("&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"))
    }

    @Test func aNameWithALineBreakCannotForgeAStreamEvent() throws {
        let fixture = try LiveServer(maxPhotoBytes: AppHarness.securityPhotoLimit)
        let before = try fixture.snapshot()
        let token = try fixture.csrfToken()
        let client = Endpoint(port: fixture.port)
        for name in ["Paris\ndata: {\"forged\":true}", "Paris\r\nevent: reload", "Tab\tseparated", "Bell\u{7}"] {
            let trip = try client.post("/trips", form: [("name", name), ("collection", TripCollection.fallGetaways.rawValue)], token: token)
            #expect(trip.status == 422 && trip.text.contains("Remove line breaks and other control characters from the title."))
            let activity = try client.post("/trips/1/activities", form: [("name", name)], token: token)
            #expect(activity.status == 422
                    && activity.text.contains("Remove line breaks and other control characters from the activity name."))
            let rename = try client.post("/activities/1", form: [("name", name)], token: token)
            #expect(rename.status == 422 && rename.text.contains("control characters"))
        }
        #expect(try fixture.snapshot() == before)
    }
}
