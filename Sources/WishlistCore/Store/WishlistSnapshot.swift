import Persistence

/// The database as of one moment, inside `WishlistStore.read`: every query fetched from it sees
/// the same commits, so a screen's counts always agree with its cards.
public struct WishlistSnapshot {
    let connection: Connection

    public func fetch<Value>(_ query: WishlistQuery<Value>) throws -> Value {
        try query.fetch(connection)
    }

    /// `query`'s value with what it read and when: a page's fragment, current while its region is
    /// unchanged (`Connection.readTracking`).
    public func readTracking<Value>(_ query: WishlistQuery<Value>) throws -> TrackedRead<Value> {
        try connection.readTracking { try query.fetch(connection) }
    }

    /// `body`'s value with what it read and when (`Connection.readTracking`).
    public func readTracking<T>(_ body: (WishlistSnapshot) throws -> T) throws -> TrackedRead<T> {
        try connection.readTracking { try body(self) }
    }

    /// The history token of the newest commit this snapshot includes: what a page passes to its
    /// live stream, so that only later changes are sent.
    public func historyToken() throws -> Int64 {
        try connection.latestHistoryToken()
    }
}
