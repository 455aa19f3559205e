import Persistence

/// How a trip's activities are listed; persisted as a preference. Ties are broken by name.
public enum ActivitySortOrder: String, CaseIterable, Codable, Sendable, DatabaseValueConvertible {
    case title
    case dateCreated
    case dateEdited
    case completed

    public static let `default` = ActivitySortOrder.title

    public var label: String {
        switch self {
        case .title: "Title"
        case .dateCreated: "Date Created"
        case .dateEdited: "Date Edited"
        case .completed: "Completed"
        }
    }

    /// The ORDER BY clause over the Activity table; the name (folded, then exact) and the id
    /// make the order total, so equal dates never shuffle between page loads.
    var orderByClause: String {
        let byName = "Activity.name_folded, Activity.name, Activity.id"
        return switch self {
        case .title: byName
        case .dateCreated: "Activity.date_created DESC, \(byName)"
        case .dateEdited: "Activity.date_edited DESC, \(byName)"
        case .completed: "Activity.is_complete DESC, \(byName)"
        }
    }
}
