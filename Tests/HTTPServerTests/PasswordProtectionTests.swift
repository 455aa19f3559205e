import Foundation
import Testing
import TestSupport
@testable import HTTPServer

@Suite struct PasswordProtectionTests {
    static let password = "correct horse battery staple"
    static let secret = "the protected page"

    /// CSRF in front of the password check, as an app would stack them; the login page shows
    /// the prompt's message and the form's token. Answered in process, on `clock`.
    static func visitor(_ options: PasswordProtection.Options = PasswordProtection.Options(),
                        clock: ManualClock = ManualClock()) -> Browser {
        Browser(server: server(options, clock: clock))
    }

    static func server(_ options: PasswordProtection.Options, clock: ManualClock) -> Server {
        var router = Router()
        router.get("/page") { _ in .text(secret) }
        router.post("/page") { _ in .text(secret) }
        router.get("/events") { _ in .eventStream(EventStream()) }
        var options = options
        options.clock = clock.source
        let protection = PasswordProtection(password: password, options: options) { prompt, request in
            .html("<p>\(prompt.message ?? "Sign in")</p><form action=\"\(prompt.action)\" data-return=\"\(prompt.returnPath ?? "")\">\(request.csrfToken ?? "")</form>",
                  status: prompt.status)
        }
        return Server(responder: chain([CSRFProtection(), protection], to: router.respond))
    }

    static func visitor(of server: Server, from address: String) -> Browser {
        var endpoint = InProcessEndpoint(server: server)
        endpoint.remoteAddress = address
        return Browser(endpoint)
    }

    @Test func withoutASessionBrowsersAreSentToLoginAndScriptsRefused() throws {
        var visitor = Self.visitor()
        let navigation = try visitor.get("/page", headers: ["Accept": "text/html,application/xhtml+xml"])
        #expect(navigation.status == 303 && navigation.header("Location") == "/login?return=%2Fpage")
        for reply in [try visitor.get("/page"), try visitor.get("/page", headers: ["Accept": "text/event-stream"])] {
            #expect(reply.status == 401)
            #expect(!reply.text.contains(Self.secret))
        }
        let login = try visitor.get("/login")
        #expect(login.status == 200 && login.text.contains("Sign in"))
        #expect(login.header("Cache-Control") == "no-store")
    }

    @Test func theRightPasswordStartsAStrictHttpOnlySession() throws {
        var visitor = Self.visitor()
        let reply = try visitor.logIn(with: Self.password)
        #expect(reply.status == 303 && reply.header("Location") == "/")
        let cookie = try #require(reply.headers.first { $0.name == "Set-Cookie" && $0.value.hasPrefix("session=") }?.value)
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Max-Age=43200"))
        let session = try #require(visitor.cookies["session"])
        #expect(session.count == 64)
        #expect(try visitor.get("/page").text == Self.secret)
        // Signed in, the login page leads home.
        #expect(try visitor.get("/login").header("Location") == "/")
    }

    /// A link opened while signed out (a calendar event's) lands on its page once signed in, a
    /// wrong password first included; the login page keeps where to go in its form.
    @Test func signingInReturnsToThePageAskedFor() throws {
        var visitor = Self.visitor()
        let navigation = try visitor.get("/page?day=2&q=a%2Fb", headers: ["Accept": "text/html"])
        #expect(navigation.header("Location") == "/login?return=%2Fpage%3Fday%3D2%26q%3Da%252Fb")
        let login = try visitor.get(try #require(navigation.header("Location")))
        #expect(login.text.contains(#"data-return="/page?day=2&q=a%2Fb""#))
        let wrong = try visitor.post("/login", form: [(PasswordProtection.passwordFieldName, "guess"), ("return", "/page?day=2&q=a%2Fb")])
        #expect(wrong.status == 403 && wrong.text.contains(#"data-return="/page?day=2&q=a%2Fb""#))
        let right = try visitor.post("/login", form: [(PasswordProtection.passwordFieldName, Self.password), ("return", "/page?day=2&q=a%2Fb")])
        #expect(right.status == 303 && right.header("Location") == "/page?day=2&q=a%2Fb")
        #expect(try visitor.get("/login?return=%2Fpage").header("Location") == "/page", "signed in already")
        var stranger = Self.visitor()
        #expect(try stranger.get("/", headers: ["Accept": "text/html"]).header("Location") == "/login", "home needs no return")
    }

    /// Only a path on this site: anything a browser would read as another origin leads home.
    @Test(arguments: ["//evil.example", "https://evil.example", "/\\evil.example", "/\t/evil.example", "evil.example"])
    func aReturnToAnotherSiteLeadsHome(_ hostile: String) throws {
        var visitor = Self.visitor()
        let login = try visitor.get("/login?return=" + hostile.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
        #expect(!login.text.contains("evil"))
        let reply = try visitor.post("/login", form: [(PasswordProtection.passwordFieldName, Self.password), ("return", hostile)])
        #expect(reply.status == 303 && reply.header("Location") == "/")
        #expect(try visitor.get("/login?return=" + hostile.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
            .header("Location") == "/")
        if hostile.hasPrefix("//") {
            var stranger = Self.visitor()
            #expect(try stranger.get(hostile, headers: ["Accept": "text/html"]).header("Location") == "/login")
        }
    }

    @Test func aWrongPasswordOrAForgedSessionGetsNothing() throws {
        var visitor = Self.visitor()
        for guess in ["", "correct horse", Self.password + "!", Self.password.uppercased()] {
            let reply = try visitor.logIn(with: guess)
            #expect(reply.status == 403)
            #expect(reply.text.contains(PasswordProtection.wrongPasswordMessage))
            #expect(visitor.cookies["session"] == nil)
        }
        visitor.cookies["session"] = String(repeating: "ab", count: 32)
        #expect(try visitor.get("/page").status == 401)
    }

    @Test func theLoginFormNeedsTheCSRFToken() throws {
        var visitor = Self.visitor()
        _ = try visitor.get("/login")
        let reply = try visitor.send(.post, "/login", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                     body: Array(SocketClient.formEncode([("password", Self.password)]).utf8))
        #expect(reply.status == 403)
        #expect(visitor.cookies["session"] == nil)
    }

    @Test func wrongPasswordsAreLimitedPerClientEvenAgainstTheRightOne() throws {
        var options = PasswordProtection.Options()
        options.wrongAttemptLimit = 3
        var visitor = Self.visitor(options)
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

    @Test func guessesFromManyAddressesAreBoundedOverallAndTheOwnerStillGetsIn() throws {
        let clock = ManualClock()
        let server = Self.server(PasswordProtection.Options(), clock: clock)
        var owner = Self.visitor(of: server, from: "192.168.1.20")
        #expect(try owner.logIn(with: Self.password).status == 303)

        var checked = 0
        for host in 1...50 {
            var attacker = Self.visitor(of: server, from: "127.0.0.\(host)")
            for _ in 1...5 where try attacker.logIn(with: "guess").status == 403 { checked += 1 }
        }
        #expect(checked == 20)
        // Past the overall limit a new address is refused whatever it sends, so a guess tells nothing.
        var newcomer = Self.visitor(of: server, from: "127.0.1.1")
        #expect(try newcomer.logIn(with: Self.password).status == 429)
        var ownerAgain = Self.visitor(of: server, from: "192.168.1.20")
        #expect(try ownerAgain.logIn(with: Self.password).status == 303)

        clock.advance(by: .seconds(60))
        #expect(try newcomer.logIn(with: Self.password).status == 303)
    }

    @Test func anAddressLockedOutDoesNotLockOutTheOthers() throws {
        let server = Self.server(PasswordProtection.Options(), clock: ManualClock())
        var attacker = Self.visitor(of: server, from: "127.0.0.2")
        for _ in 1...5 { #expect(try attacker.logIn(with: "guess").status == 403) }
        #expect(try attacker.logIn(with: "guess").status == 429)
        var owner = Self.visitor(of: server, from: "127.0.0.3")
        #expect(try owner.logIn(with: Self.password).status == 303)
    }

    @Test func theLimitLiftsWhenTheWindowPasses() throws {
        var options = PasswordProtection.Options()
        options.wrongAttemptLimit = 2
        options.wrongAttemptWindow = .seconds(60)
        let clock = ManualClock()
        var visitor = Self.visitor(options, clock: clock)
        for _ in 1...2 { _ = try visitor.logIn(with: "guess") }
        clock.advance(by: .seconds(59))
        #expect(try visitor.logIn(with: Self.password).status == 429)
        clock.advance(by: .seconds(1))
        #expect(try visitor.logIn(with: Self.password).status == 303)
    }

    @Test func sessionsExpireOnTheServer() throws {
        var options = PasswordProtection.Options()
        options.sessionLifetime = .seconds(600)
        let clock = ManualClock()
        var visitor = Self.visitor(options, clock: clock)
        _ = try visitor.logIn(with: Self.password)
        clock.advance(by: .seconds(599))
        #expect(try visitor.get("/page").status == 200)
        clock.advance(by: .seconds(1))
        // The browser would have dropped the cookie; a replayed one is refused all the same.
        #expect(try visitor.get("/page").status == 401)
    }

    @Test func logoutEndsTheSessionOnTheServer() throws {
        var visitor = Self.visitor()
        _ = try visitor.logIn(with: Self.password)
        let session = try #require(visitor.cookies["session"])
        let reply = try visitor.post("/logout", form: [])
        #expect(reply.status == 303 && reply.header("Location") == "/login")
        #expect(reply.header("Clear-Site-Data") == #""cache""#)
        #expect(visitor.cookies["session"] == nil)
        visitor.cookies["session"] = session
        #expect(try visitor.get("/page").status == 401)
    }

    /// A live stream opened under a session ends with it: at once when it signs out, at the next
    /// heartbeat once it has expired; another session's stream stays.
    @Test func streamsOpenedUnderASessionEndWithIt() throws {
        var options = PasswordProtection.Options()
        options.sessionLifetime = .seconds(600)
        let clock = ManualClock()
        let server = Self.server(options, clock: clock)
        func signedIn() throws -> (visitor: Browser, stream: EventStream) {
            var visitor = Browser(server: server)
            _ = try visitor.logIn(with: Self.password)
            let session = try #require(visitor.cookies["session"])
            let response = server.respond(to: try Request(method: .get, target: "/events",
                                                          headers: ["Host": "127.0.0.1", "Cookie": "session=\(session)"],
                                                          remoteAddress: "127.0.0.1"))
            guard case .eventStream(let stream) = response.body else { throw TestFailure("no stream: \(response.status)") }
            return (visitor, stream)
        }
        var (first, firstStream) = try signedIn()
        clock.advance(by: .seconds(300))
        let (_, secondStream) = try signedIn()
        _ = try first.post("/logout", form: [])
        #expect(firstStream.isClosed)
        #expect(!secondStream.isClosed)
        clock.advance(by: .seconds(599))
        secondStream.sendHeartbeat()
        #expect(!secondStream.isClosed)
        clock.advance(by: .seconds(1))
        secondStream.sendHeartbeat()
        #expect(secondStream.isClosed)
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

extension Browser {
    /// Opens the login page for its CSRF token, then posts `password`.
    mutating func logIn(with password: String) throws -> Reply {
        _ = try get("/login")
        #expect(cookies[CSRFProtection.cookieName] != nil)
        return try post("/login", form: [(PasswordProtection.passwordFieldName, password)])
    }
}
