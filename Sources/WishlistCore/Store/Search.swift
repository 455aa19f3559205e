import Foundation
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
            let trips = try SubstringSearch.trips.rows(selecting: Trip.selection, containing: needle,
                                                       limit: tripLimit, on: connection)
            let activities = try SubstringSearch.activities.rows(selecting: "\(Activity.selection), Trip.name AS trip_name",
                                                                 containing: needle, limit: activityLimit, on: connection)
            return SearchResults(
                trips: try trips.map(Trip.init(row:)),
                activities: try activities.map { ActivityMatch(activity: try Activity(row: $0), tripName: $0["trip_name"]) },
                isRecent: false)
        }
    }
}

/// Substring search over one table's `name_folded`, sorted by name and limited, in bounded time
/// on large tables.
///
/// Every name containing the needle contains each of its trigrams, so the FTS5 trigram index
/// yields a superset of the matches and `instr` keeps the true ones. Only a few trigrams are
/// asked for, taken from the needle's longest words (the rarest, as a rule): intersecting the
/// huge lists of trigrams like "the" would cost more than it filters.
///
/// At most `matchPool` matches are gathered (in the order the rows were added) and then sorted
/// by name: with fewer matches, which is the rule for any specific search, the result is exactly
/// the first matches by name; with more (a very common word) it is `limit` of them, by name,
/// found without sorting a hundred thousand rows. Needles of 1–2 characters have no trigram:
/// they walk the name index in order, exact and bounded by the limit.
struct SubstringSearch {
    let table: String
    let searchTable: String
    /// Extra FROM clause for the columns a caller selects.
    let join: String

    static let trips = SubstringSearch(table: "Trip", searchTable: "TripSearch", join: "")
    static let activities = SubstringSearch(table: "Activity", searchTable: "ActivitySearch",
                                            join: "JOIN Trip ON Trip.id = Activity.trip_id")

    static let matchPool = 500

    func rows(selecting columns: String, containing needle: String, limit: Int, on connection: Connection) throws -> [Row] {
        let ordering = "ORDER BY \(table).name_folded, \(table).name, \(table).id LIMIT ?"
        guard let query = Self.trigramQuery(for: needle) else {
            return try connection.fetchAll("""
                SELECT \(columns) FROM \(table) \(join) WHERE instr(\(table).name_folded, ?) > 0 \(ordering)
                """, [needle, limit])
        }
        // The pool is sorted on its own small rows; only the final page is joined and fetched whole.
        return try connection.fetchAll("""
            WITH pool AS (
                SELECT candidate.id, candidate.name_folded, candidate.name
                FROM \(searchTable) JOIN \(table) AS candidate ON candidate.id = \(searchTable).rowid
                WHERE \(searchTable) MATCH ? AND instr(candidate.name_folded, ?) > 0 LIMIT ?),
            page AS (SELECT id FROM pool ORDER BY name_folded, name, id LIMIT ?)
            SELECT \(columns) FROM \(table) \(join) WHERE \(table).id IN page \(ordering)
            """, [query, needle, Self.matchPool, limit, limit])
    }

    /// An FTS5 query asking for a few trigrams of the needle (first and last of its longest
    /// word, first of the next two), or nil below three characters. Each trigram is quoted, so
    /// no user text is read as query syntax.
    static func trigramQuery(for needle: String) -> String? {
        func trigrams(_ text: Substring) -> [String] {
            let scalars = Array(text.unicodeScalars)
            guard scalars.count >= 3 else { return [] }
            return (0...(scalars.count - 3)).map { start in
                var trigram = String.UnicodeScalarView()
                trigram.append(contentsOf: scalars[start..<(start + 3)])
                return String(trigram)
            }
        }
        let words = needle.split(whereSeparator: \.isWhitespace).map(trigrams).filter { !$0.isEmpty }
            .enumerated().sorted { ($0.element.count, $1.offset) > ($1.element.count, $0.offset) }.map(\.element)
        var chosen = words.first.map { [$0.first!, $0.last!] } ?? []
        chosen += words.dropFirst().prefix(2).map { $0[0] }
        if chosen.isEmpty { chosen = trigrams(Substring(needle)).prefix(1).map { $0 } }
        guard !chosen.isEmpty else { return nil }
        var seen = Set<String>()
        return chosen.filter { seen.insert($0).inserted }
            .map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
            .joined(separator: " AND ")
    }
}
