import Foundation
import Persistence

/// One thing to do on a trip. Renaming it or checking it off sets `dateEdited`.
public struct Activity: Identifiable, Hashable, Sendable, FetchableRecord {
    public let id: Int64
    public let tripID: Int64
    public var name: String
    public var isComplete: Bool
    public var dateCreated: Date
    public var dateEdited: Date

    public static let selection = """
        Activity.id, Activity.trip_id, Activity.name, Activity.is_complete, Activity.date_created, Activity.date_edited
        """

    public init(row: Row) throws {
        id = try row.decode("id")
        tripID = try row.decode("trip_id")
        name = try row.decode("name")
        isComplete = try row.decode("is_complete")
        dateCreated = try row.decode("date_created")
        dateEdited = try row.decode("date_edited")
    }
}
