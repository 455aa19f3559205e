import Persistence
import Places

/// One page of every trip by start date (trips without dates last), the page number clamped into range.
public struct TripListing: Hashable, Sendable {
    public let trips: [Trip]
    public let tripCount: Int
    public let pageNumber: Int
    public let pageCount: Int
}

/// Where the map puts a pin: one trip, or past `MapQueries.tripPinLimit` every trip at one
/// position (`trip` is then the first of them and `tripCount` how many).
public struct TripPosition: Hashable, Sendable {
    public let tripID: Int64
    /// The trip's name, or the destination's for a group.
    public let name: String
    public let destination: String?
    public let coordinate: Coordinate
    public let tripCount: Int
    /// The trip's dates; none for a group.
    public let startDate: CalendarDate?
    public let endDate: CalendarDate?
}

extension WishlistQuery where Value == SectionPage<Trip> {
    /// Trips grouped by destination name: sections in name order, "no destination" last; each
    /// section's first `tripsPerSection` trips by start date (undated last) and its count.
    public static func tripsByDestination(after: String?, sectionLimit: Int, tripsPerSection: Int) -> Self {
        let descriptor = FetchDescriptor(table: "Trip", columns: Trip.selection,
                                         orderBy: "Trip.start_date IS NULL, Trip.start_date, Trip.id", sectionKey: "destination")
        let paging = SectionPaging(after: after.map(DatabaseValue.text), sectionLimit: sectionLimit, recordsPerSection: tripsPerSection)
        return Self { connection in try connection.fetchSections(Trip.self, descriptor, paging: paging) }
    }
}

extension WishlistQuery where Value == TripListing {
    /// Page `pageNumber` (from 1) of `pageSize` trips by start date; trips without one follow,
    /// oldest first. Two index ranges, so no page sorts the whole table.
    public static func tripsByStartDate(pageNumber: Int, pageSize: Int) -> Self {
        Self { connection in
            let total = try connection.fetchScalar(Int.self, "SELECT count(*) FROM Trip") ?? 0
            let dated = try connection.fetchScalar(Int.self, "SELECT count(*) FROM Trip WHERE start_date IS NOT NULL") ?? 0
            let page = PageNumbering(itemCount: total, pageSize: pageSize, asked: pageNumber)
            var trips = try connection.fetchAll(Trip.self, """
                SELECT \(Trip.selection) FROM Trip WHERE start_date IS NOT NULL ORDER BY start_date, id LIMIT ? OFFSET ?
                """, [pageSize, page.offset])
            if trips.count < pageSize {
                trips += try connection.fetchAll(Trip.self, """
                    SELECT \(Trip.selection) FROM Trip WHERE start_date IS NULL ORDER BY id LIMIT ? OFFSET ?
                    """, [pageSize - trips.count, max(0, page.offset - dated)])
            }
            return TripListing(trips: trips, tripCount: total, pageNumber: page.number, pageCount: page.count)
        }
    }
}

public enum MapQueries {
    /// Up to this many trips with a position each get their own pin; past it, a pin per position.
    public static let tripPinLimit = 500
}

extension WishlistQuery where Value == [TripPosition] {
    /// Every trip that has a position, by start date; grouped by position past the pin limit.
    public static var tripPositions: Self {
        Self { connection in
            let positioned = try connection.fetchScalar(Int.self, "SELECT count(*) FROM Trip WHERE latitude IS NOT NULL") ?? 0
            if positioned <= MapQueries.tripPinLimit { return try tripPositions(in: .all).fetch(connection) }
            return try TripPosition.decoding(connection.fetchAll("""
                SELECT min(id) AS id, destination AS name, destination, latitude, longitude, count(*) AS trip_count,
                       NULL AS start_date, NULL AS end_date
                FROM Trip WHERE latitude IS NOT NULL GROUP BY latitude, longitude ORDER BY trip_count DESC, id
                """))
        }
    }

    /// Every trip of `scope` that has a position, each on its own, by start date (undated last):
    /// the map's pins up to its limit, and the places a map app is given. One trip that does not
    /// exist is `WishlistError.notFound`; one without a position is none.
    public static func tripPositions(in scope: TripScope) -> Self {
        let (condition, arguments) = scope.condition
        return Self { connection in
            if case .trip(let id) = scope { try WishlistStore.requireTrip(id: id, on: connection) }
            return try TripPosition.decoding(connection.fetchAll("""
                SELECT id, name, destination, latitude, longitude, 1 AS trip_count, start_date, end_date FROM Trip
                WHERE latitude IS NOT NULL AND \(condition) ORDER BY start_date IS NULL, start_date, id
                """, arguments))
        }
    }
}

extension TripPosition {
    fileprivate static func decoding(_ rows: [Row]) throws -> [TripPosition] {
        try rows.map { row in
            TripPosition(tripID: try row.decode("id"), name: try row.decode("name"), destination: try row.decode("destination"),
                         coordinate: Coordinate(latitude: try row.decode("latitude"), longitude: try row.decode("longitude")),
                         tripCount: try row.decode("trip_count"), startDate: try row.decode("start_date"),
                         endDate: try row.decode("end_date"))
        }
    }
}

/// Which trips a list or a download covers: all, one collection's, or one.
public enum TripScope: Hashable, Sendable {
    case all
    case collection(TripCollection)
    case trip(Int64)

    /// The SQL condition on the `Trip` table that holds for exactly these trips, and its arguments.
    var condition: (sql: String, arguments: [any DatabaseValueConvertible]) {
        switch self {
        case .all: ("1", [])
        case .collection(let collection): ("Trip.collection = ?", [collection])
        case .trip(let id): ("Trip.id = ?", [id])
        }
    }
}

/// A page number clamped into `1...count` for `itemCount` items, `pageSize` a page.
struct PageNumbering {
    let number: Int
    let count: Int
    let offset: Int

    init(itemCount: Int, pageSize: Int, asked: Int) {
        count = max(1, (itemCount + pageSize - 1) / pageSize)
        number = min(max(1, asked), count)
        offset = (number - 1) * pageSize
    }
}
