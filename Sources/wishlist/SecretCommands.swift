import Foundation
import WishlistCore
import WishlistWeb

/// `wishlist token create NAME`, `list`, `revoke NAME`: API tokens from the command line, the same
/// as the Data page's (also while a server runs: it reads tokens from the database per request).
struct TokenCommand {
    let invocation: Invocation

    func run() throws {
        let store = try invocation.openStore()
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

/// `wishlist feed create NAME [--trip ID]`, `list`, `rotate NAME`, `revoke NAME`: calendar feeds
/// from the command line, the same as the Data page's. The address printed is where `serve` with
/// the same `--host`, `--port` and `--tls` answers.
struct FeedCommand {
    let invocation: Invocation

    func run() throws {
        let store = try invocation.openStore()
        defer { store.close() }
        let name = invocation.paths.dropFirst().first ?? ""
        switch Invocation.FeedAction(rawValue: invocation.paths[0]) {
        case .create:
            let path = try CalendarFeedSecrets.create(named: name, tripID: invocation.feedTrip, in: store)
            print("Created feed \(name) of \(invocation.feedTrip.map { "trip \($0)" } ?? "every trip with dates").")
            printAddress(path)
        case .list:
            let feeds = try store.calendarFeeds()
            if feeds.isEmpty { print("No calendar feeds.") }
            for feed in feeds {
                print("\(feed.name)\t\(feed.tripID.map { "trip \($0)" } ?? "all trips")\tsince \(feed.creationDate.formatted(.iso8601))")
            }
        case .rotate:
            let path = try CalendarFeedSecrets.rotate(named: name, in: store)
            print("Feed \(name) has a new address; the old one answers nothing from now on.")
            printAddress(path)
        case .revoke:
            try store.revokeCalendarFeed(name: name)
            print("Revoked feed \(name): its address answers nothing from now on.")
        case nil:
            preconditionFailure("Invocation.parse checks the action")
        }
    }

    private func printAddress(_ path: String) {
        print("Subscribe to it in a calendar app. Its address is shown only now:")
        print(invocation.origin() + path)
    }
}

extension Invocation {
    /// The wishlist in `--data-dir`, made if there is none yet.
    func openStore() throws -> WishlistStore {
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        return try WishlistStore(path: databasePath)
    }
}
