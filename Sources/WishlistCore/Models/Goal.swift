import Foundation
import Persistence

/// What a goal counts.
public enum GoalKind: Hashable, Sendable {
    /// Completed activities, over all trips.
    case activities
    /// Completed trips, over all collections.
    case trips
    /// Completed trips of one collection.
    case collectionTrips(TripCollection)

    /// The `kind` and `collection` columns of the Goal table (single-table inheritance).
    var columns: (kind: String, collection: TripCollection?) {
        switch self {
        case .activities: ("activities", nil)
        case .trips: ("trips", nil)
        case .collectionTrips(let collection): ("collectionTrips", collection)
        }
    }

    init?(kind: String, collection: TripCollection?) {
        switch (kind, collection) {
        case ("activities", nil): self = .activities
        case ("trips", nil): self = .trips
        case ("collectionTrips", let collection?): self = .collectionTrips(collection)
        default: return nil
        }
    }
}

/// A badge to earn. Its progress is maintained by the database (see Schema) in the same
/// transaction as the change that moves it.
public struct Goal: Identifiable, Hashable, Sendable, FetchableRecord {
    public let id: Int64
    public var name: String
    public var kind: GoalKind
    public var target: Int
    public var completedCount: Int
    public var isAchieved: Bool
    /// Set when the goal became achieved; nil while it is not.
    public var dateAchieved: Date?
    public var sortOrder: Int
    /// A stable slug naming the badge picture, e.g. "activities-1", "trips-3", "spring-5".
    public var badge: String
    public var achievedSubtitle: String

    /// Progress towards the target, from 0 to 1.
    public var progressFraction: Double { min(1, Double(completedCount) / Double(target)) }

    public init(row: Row) throws {
        id = try row.decode("id")
        name = try row.decode("name")
        let kindColumn: String = try row.decode("kind")
        let collection: TripCollection? = try row.decode("collection")
        guard let kind = GoalKind(kind: kindColumn, collection: collection) else {
            throw RowDecodingError.typeMismatch(column: "kind", type: "GoalKind", value: .text(kindColumn))
        }
        self.kind = kind
        target = try row.decode("target")
        completedCount = try row.decode("completed_count")
        isAchieved = try row.decode("is_achieved")
        dateAchieved = try row.decode("date_achieved")
        sortOrder = try row.decode("sort_order")
        badge = try row.decode("badge")
        achievedSubtitle = try row.decode("achieved_subtitle")
    }
}
