import Imaging
import Foundation
import Persistence

/// A trip on the wishlist. Activity counts and completion are kept by the database in the same
/// transaction as every change to the trip's activities (see Schema), so reading a trip never
/// needs its activities.
public struct Trip: Identifiable, Hashable, Sendable, FetchableRecord {
    public let id: Int64
    public var name: String
    public var subtitle: String?
    public var collection: TripCollection
    public var creationDate: Date
    public var activityCount: Int
    public var completedActivityCount: Int
    /// True when the trip has at least one activity and all of them are complete.
    public var isComplete: Bool
    /// Sizes and content version of the trip's photo, nil without one; the bytes are not loaded here.
    public var photo: TripPhotoSummary?
    /// The full-size photo's TripImage row, if any.
    public var imageID: Int64?
    public var destination: TripDestination?
    public var startDate: CalendarDate?
    /// On or after `startDate` (the schema checks it).
    public var endDate: CalendarDate?

    /// Whether a thumbnail is stored inline.
    public var hasThumbnail: Bool { photo != nil }

    public var remainingActivityCount: Int { activityCount - completedActivityCount }

    /// Completed share of the activities, 0 when there are none.
    public var completionFraction: Double {
        activityCount == 0 ? 0 : Double(completedActivityCount) / Double(activityCount)
    }

    /// A digest of what the trip's form shows: a save that sends back the one it was drawn with
    /// overwrites nothing changed meanwhile (`WishlistStore.updateTrip(expected:)`).
    public var editVersion: String {
        let coordinate: String = destination?.coordinate.map { "\($0.latitude),\($0.longitude)" } ?? ""
        let place: String = destination?.place.map { "\($0)" } ?? ""
        let fields: [String] = [name, subtitle ?? "", collection.rawValue, destination?.name ?? "", coordinate, place,
                                startDate?.description ?? "", endDate?.description ?? "", photo?.version ?? ""]
        return String(SHA256.hexDigest(of: fields.joined(separator: "\u{1F}")).prefix(16))
    }

    /// The columns `init(row:)` reads, qualified so that they work in joins.
    public static let selection = """
        Trip.id, Trip.name, Trip.subtitle, Trip.collection, Trip.creation_date, Trip.activity_count,
        Trip.completed_activity_count, Trip.is_complete, Trip.image_id,
        Trip.photo_version, Trip.thumbnail_width, Trip.thumbnail_height, Trip.photo_width, Trip.photo_height,
        Trip.start_date, Trip.end_date, \(TripDestination.selection)
        """

    /// The trips whose ids `idsSQL` selects, in its order, kept as `Connection.fetchKept(_:from:select:idsFrom:_:)`
    /// keeps them: a check-off changes one trip's counts, so every other trip is served as read before.
    static func kept(matching idsSQL: String, _ arguments: [any DatabaseValueConvertible], on connection: Connection) throws -> [Trip] {
        try connection.fetchKept(Trip.self, from: "Trip", select: selection, idsFrom: idsSQL, arguments)
    }

    public init(row: Row) throws {
        id = try row.decode("id")
        name = try row.decode("name")
        subtitle = try row.decode("subtitle")
        collection = try row.decode("collection")
        creationDate = try row.decode("creation_date")
        activityCount = try row.decode("activity_count")
        completedActivityCount = try row.decode("completed_activity_count")
        isComplete = try row.decode("is_complete")
        imageID = try row.decode("image_id")
        // In `selection`'s order, which makes each lookup by name one comparison (`RowColumns`).
        photo = try TripPhotoSummary(row: row)
        startDate = try row.decode("start_date")
        endDate = try row.decode("end_date")
        destination = try TripDestination(row: row)
    }
}
