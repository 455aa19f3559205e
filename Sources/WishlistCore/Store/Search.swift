import Persistence

extension WishlistQuery where Value == SearchResults {
    /// Trips and activities whose name contains `text`, ignoring case and accents, each sorted by
    /// name; an empty text gives the three most recent trips instead.
    public static func search(_ text: String, tripLimit: Int = 50, activityLimit: Int = 100) -> Self {
        let needle = text.trimmingCharacters(in: .whitespacesAndNewlines).folded
        return Self(tables: ["Trip", "Activity"]) { connection in
            if needle.isEmpty {
                return SearchResults(trips: try WishlistQuery<[Trip]>.recentTrips(limit: 3).fetch(connection),
                                     activities: [], isRecent: true)
            }
            let trips = try connection.fetchAll(Trip.self, SubstringSearch.trips.sql(
                selecting: Trip.selection, for: needle, on: connection), [needle, tripLimit])
            let activities = try connection.fetchAll(SubstringSearch.activities.sql(
                selecting: "\(Activity.selection), Trip.name AS trip_name", for: needle, on: connection),
                [needle, activityLimit])
            return SearchResults(
                trips: trips,
                activities: try activities.map { ActivityMatch(activity: try Activity(row: $0), tripName: $0["trip_name"]) },
                isRecent: false)
        }
    }
}

/// Substring search over one table's `name_folded`, sorted by name and limited, that stays fast
/// on large tables whatever the match count:
/// - few matches: the FTS5 trigram index finds them, then only those rows are sorted;
/// - many matches (a common word): walking the name index in order finds the first page of
///   matches after a short scan, which beats sorting thousands of hits;
/// - 1–2 characters (the trigram index needs 3): the same ordered walk, correct and bounded
///   by the limit, slow only for rare short strings.
struct SubstringSearch {
    let table: String
    let searchTable: String
    /// Extra FROM clause for the columns a caller selects.
    let join: String

    static let trips = SubstringSearch(table: "Trip", searchTable: "TripSearch", join: "")
    static let activities = SubstringSearch(table: "Activity", searchTable: "ActivitySearch",
                                            join: "JOIN Trip ON Trip.id = Activity.trip_id")

    /// Above this many index hits, the ordered walk is cheaper than sorting the hits.
    static let denseMatchCount = 1000

    /// SQL with two parameters, the folded needle and the limit.
    func sql(selecting columns: String, for needle: String, on connection: Connection) throws -> String {
        let predicate = try usesIndex(for: needle, on: connection)
            ? "\(table).id IN (SELECT rowid FROM \(searchTable) WHERE \(searchTable) MATCH \(SubstringSearch.phrase))"
            : "instr(\(table).name_folded, ?) > 0"
        return """
            SELECT \(columns) FROM \(table) \(join) WHERE \(predicate)
            ORDER BY \(table).name_folded, \(table).name, \(table).id LIMIT ?
            """
    }

    /// The needle as one FTS5 phrase: inside double quotes everything is literal except a
    /// doubled quote, so no user text is read as query syntax.
    private static let phrase = "'\"' || replace(?, '\"', '\"\"') || '\"'"

    private func usesIndex(for needle: String, on connection: Connection) throws -> Bool {
        guard needle.unicodeScalars.count >= 3 else { return false }
        let hits = try connection.fetchScalar(Int.self, """
            SELECT count(*) FROM (SELECT 1 FROM \(searchTable) WHERE \(searchTable) MATCH \(SubstringSearch.phrase) LIMIT ?)
            """, [needle, SubstringSearch.denseMatchCount + 1]) ?? 0
        return hits <= SubstringSearch.denseMatchCount
    }
}
