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
            let trips = try SubstringSearch.trips.fetch(selecting: Trip.selection, for: needle, limit: tripLimit,
                                                        on: connection).map(Trip.init(row:))
            let activities = try SubstringSearch.activities.fetch(
                selecting: "\(Activity.selection), Trip.name AS trip_name", for: needle, limit: activityLimit, on: connection)
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

    /// The rows matching `needle`, sorted by name, at most `limit`.
    func fetch(selecting columns: String, for needle: String, limit: Int, on connection: Connection) throws -> [Row] {
        let predicate: String
        let argument: any DatabaseValueConvertible
        if let ids = try indexHits(for: needle, on: connection) {
            // The ids found by the index, passed back rather than searched for twice: a long
            // needle makes many trigrams, and matching them was the query's main cost.
            predicate = "\(table).id IN (SELECT value FROM json_each(?))"
            argument = "[" + ids.map(String.init).joined(separator: ",") + "]"
        } else {
            predicate = "instr(\(table).name_folded, ?) > 0"
            argument = needle
        }
        return try connection.fetchAll("""
            SELECT \(columns) FROM \(table) \(join) WHERE \(predicate)
            ORDER BY \(table).name_folded, \(table).name, \(table).id LIMIT ?
            """, [argument, limit])
    }

    /// The needle as one FTS5 phrase: inside double quotes everything is literal except a
    /// doubled quote, so no user text is read as query syntax.
    private static let phrase = "'\"' || replace(?, '\"', '\"\"') || '\"'"

    /// The ids of every row the trigram index finds; nil when the needle is too short for
    /// trigrams or the matches are too many to sort (the ordered walk is cheaper then).
    private func indexHits(for needle: String, on connection: Connection) throws -> [Int64]? {
        guard needle.unicodeScalars.count >= 3 else { return nil }
        let rows = try connection.fetchAll("""
            SELECT rowid FROM \(searchTable) WHERE \(searchTable) MATCH \(SubstringSearch.phrase) LIMIT ?
            """, [needle, SubstringSearch.denseMatchCount + 1])
        guard rows.count <= SubstringSearch.denseMatchCount else { return nil }
        return try rows.map { try $0.decode(at: 0, as: Int64.self) }
    }
}
