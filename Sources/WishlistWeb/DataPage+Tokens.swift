import Foundation
import HTTPServer
import Mustache
import WishlistCore

/// Making API tokens: the one place a secret is made and its hash stored, for the Data page and
/// `wishlist token create`.
public enum APITokens {
    /// Stores a new token called `name` and returns its secret, to be shown once: only its hash is kept.
    public static func create(named name: String, in store: WishlistStore) throws -> String {
        let secret = try BearerToken.make()
        try store.addAPIToken(name: name, secretHash: BearerToken.hash(secret))
        return secret
    }
}

// The Data page's API tokens section: create one (its secret shown on the answer, once), revoke one.
extension DataPage {
    func registerTokenRoutes(on router: inout Router) {
        router.post("/data/tokens") { request in try createToken(request) }
        router.post("/data/tokens/:name/revoke") { request in
            try app.store.revokeAPIToken(name: request.parameters["name"] ?? "")
            return .redirect(to: "/data#tokens")
        }
    }

    private func createToken(_ request: Request) throws -> Response {
        let name = request.form["name"] ?? ""
        return try secretAnswer(request, section: .tokens, name: name) { try APITokens.create(named: name, in: app.store) }
    }

    func tokensContext(_ notice: SecretNotice?) throws -> [String: MustacheValue] {
        let tokens = try app.store.apiTokens()
        var context: [String: MustacheValue] = [
            "tokens": .array(tokens.map { ["name": .string($0.name), "author": .string($0.author),
                                           "created": .string($0.creationDate.longDateText)] }),
            "hasTokens": .bool(!tokens.isEmpty),
        ]
        switch notice?.outcome {
        case .created(let name, let secret): context["newToken"] = ["name": .string(name), "secret": .string(secret)]
        case .problem(let message, let typedName):
            context["tokenProblem"] = .string(message)
            context["tokenTyped"] = .string(typedName)
        case nil: break
        }
        return context
    }
}
