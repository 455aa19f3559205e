import Foundation
import Persistence
import Testing
import TestSupport
@testable import WishlistCore

/// API tokens in the store: kept by the hash of their secret, named as history authors, and
/// neither in the history nor in exports.
@Suite struct APITokenTests {
    @Test func aTokenIsFoundByItsSecretsHashUntilRevoked() throws {
        let clock = ManualClock()
        let test = try TestStore(clock: clock)
        let token = try test.store.addAPIToken(name: " laptop-sync ", secretHash: "hash-1")
        #expect(token.name == "laptop-sync" && token.author == "token:laptop-sync")
        #expect(token.creationDate == clock.date)
        #expect(try test.store.apiToken(secretHash: "hash-1") == token)
        #expect(try test.store.apiToken(secretHash: "hash-2") == nil)
        #expect(try test.store.apiTokens() == [token])

        try test.store.revokeAPIToken(name: "laptop-sync")
        #expect(try test.store.apiToken(secretHash: "hash-1") == nil)
        #expect(throws: WishlistError.noSuchSecret(kind: "API token", name: "laptop-sync")) { try test.store.revokeAPIToken(name: "laptop-sync") }
    }

    @Test func namesAreNewAndPlain() throws {
        let test = try TestStore()
        try test.store.addAPIToken(name: "sync", secretHash: "a")
        for (name, message) in [("sync", "There is already a token called “sync”"), ("", "Enter a name"),
                                ("has space", "letters, digits"), ("tök", "letters, digits"),
                                (String(repeating: "x", count: 41), "at most 40")] {
            let error = try #require(throws: ValidationError.self) { try test.store.addAPIToken(name: name, secretHash: "b") }
            #expect(error.field == "name" && error.message.contains(message), "\(name)")
        }
        #expect(try test.store.apiTokens().map(\.name) == ["sync"])
    }

    /// The history is for sync clients, exports for moving a wishlist: tokens belong in neither.
    @Test func tokensStayOutOfTheHistoryAndTheArchive() throws {
        let test = try TestStore()
        let before = try test.store.database.latestHistoryToken()
        try test.store.addAPIToken(name: "sync", secretHash: "secret-hash")
        try test.store.revokeAPIToken(name: "sync")
        try test.store.addAPIToken(name: "kept", secretHash: "kept-hash")
        #expect(try test.store.database.latestHistoryToken() == before)
        #expect(!test.store.database.historyEntities.contains("APIToken"))

        let archive = URL(fileURLWithPath: test.directory.path + "/export.json")
        try WishlistArchive(store: test.store).export(to: archive)
        let document = try String(contentsOf: archive, encoding: .utf8)
        #expect(!document.contains("kept") && !document.lowercased().contains("token"))
    }
}
