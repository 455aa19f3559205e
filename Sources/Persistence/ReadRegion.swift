/// What a read depends on, for `Database.readTrackingRows`: the tables and columns its
/// statements read, and the rows (by table, by rowid) of the kept records it read, which stand
/// in for those records' columns. A commit changing other rows of a table leaves it unchanged:
/// a check-off in one trip, for a page that shows other trips.
public struct ReadRegion: Equatable, Sendable {
    public let columns: DatabaseRegion
    public let rows: [String: Set<Int64>]
}

/// A value read by `Database.readTrackingRows`, with what it read and when.
public struct TrackedRead<Value> {
    public let value: Value
    public let region: ReadRegion
    /// The generation loaded before the snapshot began.
    public let generation: UInt64
    /// The newest history token the snapshot saw.
    public let historyToken: Int64
}

extension TrackedRead: Sendable where Value: Sendable {}
