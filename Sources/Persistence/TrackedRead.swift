/// A value read by `Connection.readTracking`, with what it read and when: current while
/// `Database.isUnchanged(region, since: generation)`.
public struct TrackedRead<Value> {
    public let value: Value
    public let region: DatabaseRegion
    /// The generation loaded before the snapshot began.
    public let generation: UInt64

    public init(value: Value, region: DatabaseRegion, generation: UInt64) {
        self.value = value
        self.region = region
        self.generation = generation
    }
}

extension TrackedRead: Sendable where Value: Sendable {}
