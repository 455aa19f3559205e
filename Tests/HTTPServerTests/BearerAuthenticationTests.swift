import Foundation
import Testing
import TestSupport
@testable import HTTPServer

/// API tokens in front of CSRF protection: a known token passes without cookies or a CSRF token,
/// anything else with an Authorization header is a 401, requests without one are untouched.
@Suite struct BearerAuthenticationTests {
    static let secret = "wlt_" + String(repeating: "ab", count: 32)

    static func server() throws -> Server {
        var router = Router()
        router.post("/api/change") { request in
            .text("\(request.bearerTokenName ?? "none") cookies=\(request.cookies.count)")
        }
        router.post("/other") { _ in .text("changed") }
        let bearer = BearerAuthentication(paths: ["/api"]) { hash in hash == BearerToken.hash(secret) ? "script" : nil }
        return Server(configuration: Server.Configuration(port: 0), responder: chain([bearer, CSRFProtection()], to: router.respond))
    }

    @Test func aKnownTokenSkipsCSRFAndDropsTheCookies() throws {
        let client = InProcessEndpoint(server: try Self.server())
        let reply = try client.send("POST", "/api/change", headers: ["Authorization": "bearer \(Self.secret)", "Cookie": "session=x"])
        #expect(reply.status == 200 && reply.text == "script cookies=0")
        #expect(reply.setCookies.isEmpty)
        #expect(try client.send("POST", "/api/change").status == 403, "without a token: CSRF as before")
    }

    @Test func anythingElseIsA401AskingForABearerToken() throws {
        let client = InProcessEndpoint(server: try Self.server())
        for (target, authorization) in [("/api/change", "Bearer wlt_wrong"), ("/api/change", "Basic c2NyaXB0"),
                                        ("/api/change", "Bearer"), ("/other", "Bearer \(Self.secret)"),
                                        ("/apis", "Bearer \(Self.secret)")] {
            let reply = try client.send("POST", target, headers: ["Authorization": authorization])
            #expect(reply.status == 401 && reply.header("WWW-Authenticate")?.hasPrefix("Bearer") == true, "\(target) \(authorization)")
        }
    }

    @Test func secretsAreNewEachTimeAndHashedAsSHA256() throws {
        #expect(BearerToken.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let first = try BearerToken.make(), second = try BearerToken.make()
        #expect(first != second && first.hasPrefix("wlt_") && first.count == 68)
    }
}
