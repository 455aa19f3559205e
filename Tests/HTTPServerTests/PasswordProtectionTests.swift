import Foundation
import Testing
@testable import HTTPServer

@Suite struct PasswordProtectionTests {
    static let password = "correct horse battery staple"
    static let secret = "the protected page"

    /// CSRF in front of the password check, as an app would stack them; the login page shows
    /// the prompt's message and the form's token.
    static func app(_ options: PasswordProtection.Options = PasswordProtection.Options()) -> Handler {
        var router = Router()
        router.get("/page") { _ in .text(secret) }
        router.post("/page") { _ in .text(secret) }
        let protection = PasswordProtection(password: password, options: options) { prompt, request in
            .html("<p>\(prompt.message ?? "Sign in")</p><form action=\"\(prompt.action)\">\(request.csrfToken ?? "")</form>",
                  status: prompt.status)
        }
        return chain([CSRFProtection(), protection], to: router.respond)
    }

    /// A browser's view: its cookies, and the CSRF token the login page shows.
    struct Visitor {
        let port: Int
        var cookies: [String: String] = [:]

        mutating func send(_ method: String, _ path: String, form: String? = nil,
                           headers extra: [String: String] = [:]) throws -> RawClient.Reply {
            var headers = extra
            if !cookies.isEmpty { headers["Cookie"] = cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }
            if form != nil { headers["Content-Type"] = "application/x-www-form-urlencoded" }
            let reply = try RawClient(port: port).request(method, path, headers: headers, body: Array((form ?? "").utf8))
            for (name, value) in reply.headers where name.lowercased() == "set-cookie" {
                let pair = value.split(separator: ";")[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                cookies[String(pair[0])] = pair.count > 1 && !pair[1].isEmpty ? String(pair[1]) : nil
            }
            return reply
        }

        mutating func logIn(with password: String) throws -> RawClient.Reply {
            _ = try send("GET", "/login")
            let token = try #require(cookies[CSRFProtection.cookieName])
            let encoded = password.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            return try send("POST", "/login", form: "_csrf=\(token)&password=\(encoded)")
        }
    }

    @Test func withoutASessionBrowsersAreSentToLoginAndScriptsRefused() throws {
        try withServer(handler: Self.app()) { server throws in
            var visitor = Visitor(port: server.port)
            let navigation = try visitor.send("GET", "/page", headers: ["Accept": "text/html,application/xhtml+xml"])
            #expect(navigation.status == 303 && navigation.header("Location") == "/login")
            for reply in [try visitor.send("GET", "/page"), try visitor.send("GET", "/page", headers: ["Accept": "text/event-stream"])] {
                #expect(reply.status == 401)
                #expect(!reply.text.contains(Self.secret))
            }
            let login = try visitor.send("GET", "/login")
            #expect(login.status == 200 && login.text.contains("Sign in"))
            #expect(login.header("Cache-Control") == "no-store")
        }
    }

    @Test func theRightPasswordStartsAStrictHttpOnlySession() throws {
        try withServer(handler: Self.app()) { server throws in
            var visitor = Visitor(port: server.port)
            let reply = try visitor.logIn(with: Self.password)
            #expect(reply.status == 303 && reply.header("Location") == "/")
            let cookie = try #require(reply.headers.first { $0.0 == "Set-Cookie" && $0.1.hasPrefix("session=") }?.1)
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Max-Age=43200"))
            let session = try #require(visitor.cookies["session"])
            #expect(session.count == 64)
            #expect(try visitor.send("GET", "/page").text == Self.secret)
            // Signed in, the login page leads home.
            #expect(try visitor.send("GET", "/login").header("Location") == "/")
        }
    }

    @Test func aWrongPasswordOrAForgedSessionGetsNothing() throws {
        try withServer(handler: Self.app()) { server throws in
            var visitor = Visitor(port: server.port)
            for guess in ["", "correct horse", Self.password + "!", Self.password.uppercased()] {
                let reply = try visitor.logIn(with: guess)
                #expect(reply.status == 403)
                #expect(reply.text.contains(PasswordProtection.wrongPasswordMessage))
                #expect(visitor.cookies["session"] == nil)
            }
            visitor.cookies["session"] = String(repeating: "ab", count: 32)
            #expect(try visitor.send("GET", "/page").status == 401)
        }
    }

    @Test func theLoginFormNeedsTheCSRFToken() throws {
        try withServer(handler: Self.app()) { server throws in
            var visitor = Visitor(port: server.port)
            _ = try visitor.send("GET", "/login")
            let reply = try visitor.send("POST", "/login", form: "password=\(Self.password.replacingOccurrences(of: " ", with: "+"))")
            #expect(reply.status == 403)
            #expect(visitor.cookies["session"] == nil)
        }
    }

    @Test func wrongPasswordsAreLimitedPerClientEvenAgainstTheRightOne() throws {
        var options = PasswordProtection.Options()
        options.wrongAttemptLimit = 3
        try withServer(handler: Self.app(options)) { server throws in
            var visitor = Visitor(port: server.port)
            for _ in 1...3 { #expect(try visitor.logIn(with: "guess").status == 403) }
            for guess in ["guess", Self.password] {
                let refused = try visitor.logIn(with: guess)
                #expect(refused.status == 429)
                let retryAfter = try #require(refused.header("Retry-After").flatMap(Int.init))
                #expect((1...60).contains(retryAfter))
                #expect(refused.text.contains("Too many wrong passwords. Try again in \(retryAfter) second"))
                #expect(visitor.cookies["session"] == nil)
            }
        }
    }

    @Test func theLimitLiftsWhenTheWindowPasses() throws {
        var options = PasswordProtection.Options()
        options.wrongAttemptLimit = 2
        options.wrongAttemptWindow = .milliseconds(300)
        try withServer(handler: Self.app(options)) { server throws in
            var visitor = Visitor(port: server.port)
            for _ in 1...2 { _ = try visitor.logIn(with: "guess") }
            #expect(try visitor.logIn(with: Self.password).status == 429)
            Thread.sleep(forTimeInterval: 0.35)
            #expect(try visitor.logIn(with: Self.password).status == 303)
        }
    }

    @Test func sessionsExpireOnTheServer() throws {
        var options = PasswordProtection.Options()
        options.sessionLifetime = .milliseconds(300)
        try withServer(handler: Self.app(options)) { server throws in
            var visitor = Visitor(port: server.port)
            _ = try visitor.logIn(with: Self.password)
            #expect(try visitor.send("GET", "/page").status == 200)
            Thread.sleep(forTimeInterval: 0.35)
            // The browser would have dropped the cookie; a replayed one is refused all the same.
            #expect(try visitor.send("GET", "/page").status == 401)
        }
    }

    @Test func logoutEndsTheSessionOnTheServer() throws {
        try withServer(handler: Self.app()) { server throws in
            var visitor = Visitor(port: server.port)
            _ = try visitor.logIn(with: Self.password)
            let session = try #require(visitor.cookies["session"])
            let token = try #require(visitor.cookies[CSRFProtection.cookieName])
            let reply = try visitor.send("POST", "/logout", form: "_csrf=\(token)")
            #expect(reply.status == 303 && reply.header("Location") == "/login")
            #expect(visitor.cookies["session"] == nil)
            visitor.cookies["session"] = session
            #expect(try visitor.send("GET", "/page").status == 401)
        }
    }

    @Test func tokenComparisonIgnoresNothingAndEveryLengthDiffers() throws {
        #expect(SecretToken.constantTimeEquals("secret", "secret"))
        for guess in ["", "secre", "secret!", "Secret", "secrex", "secret\0"] {
            #expect(!SecretToken.constantTimeEquals(guess, "secret"))
        }
        let token = try SecretToken.make()
        let another = try SecretToken.make()
        #expect(SecretToken.isWellFormed(token) && token != another)
        #expect(!SecretToken.isWellFormed(token.uppercased()) && !SecretToken.isWellFormed(String(token.dropLast())))
    }
}
