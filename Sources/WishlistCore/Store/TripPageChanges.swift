import Persistence

/// Which trips' pages changed after a history cursor: what a device keeping pages to read offline
/// fetches again, instead of every page it keeps.
public struct TripPageChanges: Sendable, Equatable {
    /// The newest history token: the cursor to ask from next time.
    public let token: Int64
    /// The trips whose pages changed; nil when any may have (more changes than one look reads,
    /// a change to how every checklist is ordered, or a cursor this history cannot go on from).
    public let trips: Set<Trip.ID>?

    /// The most history changes one look reads; beyond them, every page counts as changed.
    public static let changeLimit = 1000
}

extension WishlistStore {
    public func tripPageChanges(after cursor: HistoryCursor) throws -> TripPageChanges {
        guard try database.historyHolds(cursor) else {
            return TripPageChanges(token: try database.latestHistoryToken(), trips: nil)
        }
        let page = try database.historyPage(after: cursor, limit: TripPageChanges.changeLimit)
        guard !page.hasMore else { return TripPageChanges(token: page.newestToken, trips: nil) }
        var trips = Set<Trip.ID>(), activities = [Int64](), photos = Set<Int64>()
        for change in page.pieces.flatMap(\.transaction.changes) {
            switch change.entity {
            case "Trip": trips.insert(change.rowID)
            case "Activity": activities.append(change.rowID)
            case "Photo": photos.insert(change.rowID)
            // An image comes and goes with a photo; goals show on the list pages only, which are
            // fetched again whenever the token moved.
            case "TripImage", "Goal": break
            default: return TripPageChanges(token: page.newestToken, trips: nil)
            }
        }
        // An activity deleted since has no trip to name; its deletion changed its trip's counts.
        trips.formUnion(try fetch(.tripIDs(of: "Activity", activities)))
        // A photo deleted since names no trip; its deletion changed its trip's photo count.
        trips.formUnion(try fetch(.tripIDs(of: "Photo", Array(photos))))
        return TripPageChanges(token: page.newestToken, trips: trips)
    }
}

extension WishlistQuery where Value == Set<Trip.ID> {
    /// The trips of the rows `ids` of `table` (Activity or Photo) that are still there: one query
    /// for all of them (at most `TripPageChanges.changeLimit`), by their ids as JSON.
    static func tripIDs(of table: String, _ ids: [Int64]) -> Self {
        Self { connection in
            Set(try connection.fetchAll("SELECT DISTINCT trip_id FROM \(table) WHERE id IN (SELECT value FROM json_each(?))",
                                        [sqlJSONList(ids)]).map { $0["trip_id"] as Int64 })
        }
    }
}
