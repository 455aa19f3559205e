import Foundation
import Persistence

extension WishlistQuery where Value == SearchResults {
    /// The trips and activities in `trips` and `activities` (positions in name order) among
    /// those whose name contains `text`, ignoring case and accents, with how many match in all;
    /// an empty text gives the three most recent trips instead.
    public static func search(_ text: String, trips: Range<Int> = 0..<50, activities: Range<Int> = 0..<100) -> Self {
        let needle = text.trimmingCharacters(in: .whitespacesAndNewlines).folded
        return Self { connection in
            if needle.isEmpty {
                let recent = try WishlistQuery<[Trip]>.recentTrips(limit: 3).fetch(connection)
                return SearchResults(trips: recent, activities: [], isRecent: true,
                                     tripTotal: MatchTotal(count: recent.count, isAtLeast: false, hasMore: false),
                                     activityTotal: MatchTotal(count: 0, isAtLeast: false, hasMore: false))
            }
            let tripPage = try SubstringSearch.trips.page(selecting: Trip.selection, containing: needle,
                                                          in: trips, on: connection)
            let activityPage = try SubstringSearch.activities.page(selecting: "\(Activity.selection), Trip.name AS trip_name",
                                                                   containing: needle, in: activities, on: connection)
            return SearchResults(
                trips: try tripPage.rows.map(Trip.init(row:)),
                activities: try activityPage.rows.map { ActivityMatch(activity: try Activity(row: $0), tripName: $0["trip_name"]) },
                isRecent: false, tripTotal: tripPage.total, activityTotal: activityPage.total)
        }
    }
}

/// Substring search over one table's `name_folded`, one page in name order, in bounded time
/// on large tables.
///
/// Every name containing the needle contains each of its trigrams, so the FTS5 trigram index
/// yields a superset of the matches and `instr` keeps the true ones. Only a few trigrams are
/// asked for, taken from the needle's longest words (the rarest, as a rule): intersecting the
/// huge lists of trigrams like "the" would cost more than it filters.
///
/// At most `matchPool` matches are gathered (in the order the rows were added), counted, and
/// sorted by name; pages are cut from that pool. With fewer matches, which is the rule for any
/// specific search, that is exactly all matches by name; with more (a very common word) paging
/// ends at the pool, found without sorting a hundred thousand rows. Needles of 1–2 characters
/// have no trigram: pages walk the name index in order, exact and bounded by the page's end,
/// and are not counted beyond it. One row past the page tells whether more follow.
struct SubstringSearch {
    let table: String
    let searchTable: String
    /// Extra FROM clause for the columns a caller selects.
    let join: String

    static let trips = SubstringSearch(table: "Trip", searchTable: "TripSearch", join: "")
    static let activities = SubstringSearch(table: "Activity", searchTable: "ActivitySearch",
                                            join: "JOIN Trip ON Trip.id = Activity.trip_id")

    static let matchPool = SearchResults.matchPool

    /// The matching rows at the positions `range` (in name order), and the total.
    func page(selecting columns: String, containing needle: String, in range: Range<Int>,
              on connection: Connection) throws -> (rows: [Row], total: MatchTotal) {
        let offset = max(0, range.lowerBound)
        let limit = max(0, range.upperBound - offset)
        let order = "ORDER BY name_folded, name, id LIMIT ? OFFSET ?"
        let fetchPage = { (with: String, count: String, arguments: [any DatabaseValueConvertible]) in
            try connection.fetchAll("""
                WITH \(with) SELECT \(columns)\(count) FROM \(table) \(join) WHERE \(table).id IN page
                ORDER BY \(table).name_folded, \(table).name, \(table).id
                """, arguments + [limit + 1, offset])
        }
        let pool: String, poolArguments: [any DatabaseValueConvertible], rows: [Row]
        var total: MatchTotal?
        if let query = Self.trigramQuery(for: needle) {
            // The pool is sorted on its own small rows; only the page is joined and fetched whole.
            pool = """
                SELECT candidate.id, candidate.name_folded, candidate.name
                FROM \(searchTable) JOIN \(table) AS candidate ON candidate.id = \(searchTable).rowid
                WHERE \(searchTable) MATCH ? AND instr(candidate.name_folded, ?) > 0 LIMIT \(Self.matchPool)
                """
            poolArguments = [query, needle]
            rows = try fetchPage("pool AS (\(pool)), page AS (SELECT id FROM pool \(order))",
                                 ", (SELECT count(*) FROM pool) AS match_count", poolArguments)
            if let first = rows.first {
                let count = try first.decode("match_count", as: Int.self)
                total = MatchTotal(count: count, isAtLeast: count >= Self.matchPool, hasMore: rows.count > limit)
            } else if offset == 0 {
                // No first page, no match: counting would run the index search a second time.
                total = MatchTotal(count: 0, isAtLeast: false, hasMore: false)
            }
        } else {
            // Counting would scan the table until the pool fills, costing more than the page
            // (Benchmarks/README.md): the total is as far as the page reached, "or more" when more follow.
            pool = "SELECT id FROM \(table) WHERE instr(name_folded, ?) > 0 LIMIT \(Self.matchPool)"
            poolArguments = [needle]
            rows = try fetchPage("page AS (SELECT id FROM \(table) WHERE instr(name_folded, ?) > 0 \(order))", "", [needle])
            if !rows.isEmpty || offset == 0 {
                total = MatchTotal(count: offset + min(rows.count, limit), isAtLeast: rows.count > limit, hasMore: rows.count > limit)
            }
        }
        // A page past the end has no row to count from.
        let countedPool = { () throws -> MatchTotal in
            let count = try connection.fetchScalar(Int.self, "WITH pool AS (\(pool)) SELECT count(*) FROM pool", poolArguments) ?? 0
            return MatchTotal(count: count, isAtLeast: count >= Self.matchPool, hasMore: false)
        }
        return (Array(rows.prefix(limit)), try total ?? countedPool())
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
