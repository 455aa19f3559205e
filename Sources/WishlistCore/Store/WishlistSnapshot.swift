import Persistence

/// The database as of one moment, inside `WishlistStore.read`: every query fetched from it sees
/// the same commits, so a screen's counts always agree with its cards.
public struct WishlistSnapshot {
    let connection: Connection

    public func fetch<Value>(_ query: WishlistQuery<Value>) throws -> Value {
        try query.fetch(connection)
    }

    /// The history token of the newest commit this snapshot includes: what a page passes to its
    /// live stream, so that only later changes are sent.
    public func historyToken() throws -> Int64 {
        try connection.latestHistoryToken()
    }
}
