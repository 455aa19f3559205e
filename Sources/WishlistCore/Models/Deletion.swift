import Foundation

/// A trip or an activity deleted a moment ago, which can still be brought back
/// (`WishlistStore.undoDeletion`).
public struct Deletion: Sendable, Hashable, Identifiable {
    public enum Kind: String, Sendable {
        case trip, activity, photo
    }

    public let id: Int64
    public let kind: Kind
    /// The name of what was deleted, as the notice offering the undo says it.
    public let name: String
    /// The trip deleted, or the one the activity belonged to; after an undo, where it is now.
    public let tripID: Trip.ID
    public let date: Date
}
