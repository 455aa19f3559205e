import Foundation
import WishlistCore
import WishlistWeb

/// `wishlist token create NAME`, `list`, `revoke NAME`: API tokens from the command line, the same
/// as the Data page's (also while a server runs: it reads tokens from the database per request).
struct TokenCommand {
    let invocation: Invocation

    func run() throws {
        try FileManager.default.createDirectory(atPath: invocation.dataDirectory, withIntermediateDirectories: true)
        let store = try WishlistStore(path: invocation.databasePath)
        defer { store.close() }
        let name = invocation.paths.dropFirst().first ?? ""
        switch Invocation.TokenAction(rawValue: invocation.paths[0]) {
        case .create:
            let secret = try APITokens.create(named: name, in: store)
            print("Created token \(name); its writes show in the history as \(WishlistStore.author(ofToken: name)).")
            print("Send it as “Authorization: Bearer <token>”. It is shown only now:")
            print(secret)
        case .list:
            let tokens = try store.apiTokens()
            if tokens.isEmpty { print("No API tokens.") }
            for token in tokens { print("\(token.name)\tsince \(token.creationDate.formatted(.iso8601))") }
        case .revoke:
            try store.revokeAPIToken(name: name)
            print("Revoked token \(name): requests with it are refused from now on.")
        case nil:
            preconditionFailure("Invocation.parse checks the action")
        }
    }
}
