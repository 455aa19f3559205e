import Foundation
import Persistence

/// An API token as the owner sees it: its name and when it was made. The secret is shown once, by
/// whoever made it; only its hash is stored.
public struct APIToken: Sendable, Hashable {
    public let name: String
    public let creationDate: Date

    /// Who its writes are in the history: each token is its own author, so a sync client can ask
    /// for everyone's changes but its own.
    public var author: String { WishlistStore.author(ofToken: name) }
}

extension WishlistStore {
    public static let tokenAuthorPrefix = "token:"
    public static let maxTokenNameLength = 40

    public static func author(ofToken name: String) -> String { tokenAuthorPrefix + name }

    /// Stores a new token by the hash of its secret. The name must be new: letters, digits, - and _,
    /// so that it reads the same in a URL, a history author and a command line.
    @discardableResult
    public func addAPIToken(name: String, secretHash: String) throws -> APIToken {
        let name = try Self.validatedSecretName(name, example: "laptop-sync")
        let token = APIToken(name: name, creationDate: clock.now())
        try database.write(author: Self.appAuthor) { connection in
            guard try connection.fetchOne("SELECT 1 FROM APIToken WHERE name = ?", [name]) == nil else {
                throw ValidationError(field: "name", message: "There is already a token called “\(name)”. Pick another name, or revoke that one first.")
            }
            try connection.execute("INSERT INTO APIToken(name, secret_hash, creation_date) VALUES (?, ?, ?)",
                                   [name, secretHash, token.creationDate])
        }
        return token
    }

    /// Every token, by name.
    public func apiTokens() throws -> [APIToken] {
        try database.read { connection in
            try connection.fetchAll("SELECT \(Self.tokenColumns) FROM APIToken ORDER BY name").map(Self.token)
        }
    }

    /// The token whose secret has this hash. An index lookup, not a constant-time comparison: the
    /// hash of a 256-bit random secret gives a timing observer nothing to narrow down.
    public func apiToken(secretHash: String) throws -> APIToken? {
        try database.read { connection in
            try connection.fetchOne("SELECT \(Self.tokenColumns) FROM APIToken WHERE secret_hash = ?", [secretHash]).map(Self.token)
        }
    }

    /// Whether a token called `name` is still valid, to observe: a revoke by another process too.
    public static func apiTokenExists(name: String) -> WishlistQuery<Bool> {
        WishlistQuery { connection in
            try connection.fetchScalar(Int.self, "SELECT count(*) FROM APIToken WHERE name = ?", [name]) == 1
        }
    }

    /// Deletes the token: requests with it are refused from now on, and its open history streams end.
    public func revokeAPIToken(name: String) throws {
        try database.write(author: Self.appAuthor) { connection in
            try connection.execute("DELETE FROM APIToken WHERE name = ?", [name])
            if connection.changes == 0 { throw WishlistError.noSuchSecret(kind: "API token", name: name) }
        }
    }

    private static let tokenColumns = "name, creation_date"

    private static func token(_ row: Row) -> APIToken {
        APIToken(name: row["name"], creationDate: row["creation_date"])
    }

    /// The name of an API token or a calendar feed: what the owner calls it to revoke it.
    static func validatedSecretName(_ text: String, example: String) throws(ValidationError) -> String {
        let name = text.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { throw ValidationError(field: "name", message: "Enter a name, such as “\(example)”.") }
        guard name.count <= maxTokenNameLength,
              name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            throw ValidationError(field: "name", message: "Use letters, digits, - and _ only in the name (at most \(maxTokenNameLength)).")
        }
        return name
    }
}
