/// A value read by `Connection.readTracking`, with what it read and when: current while
/// `Database.isUnchanged(region, since: generation)`.
public struct TrackedRead<Value> {
    public let value: Value
    public let region: DatabaseRegion
    /// The generation loaded before the snapshot began.
    public let generation: UInt64
}

extension TrackedRead: Sendable where Value: Sendable {}
