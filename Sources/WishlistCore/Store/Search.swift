import Foundation
import Persistence

extension WishlistQuery where Value == SearchResults {
    /// The trips and activities in `trips` and `activities` (positions in result order) among
    /// those that contain every word of `text` (`SearchTerms`), ignoring case and accents, with
    /// how many match in all; an empty text gives the three most recent trips instead, and one of
    /// single letters nothing but `needsLongerWord`.
    public static func search(_ text: String, trips: Range<Int> = 0..<50, activities: Range<Int> = 0..<100) -> Self {
        let terms = SearchTerms(text)
        return Self { connection in
            if terms.words.isEmpty {
                let recent = try WishlistQuery<[Trip]>.recentTrips(limit: 3).fetch(connection)
                return SearchResults(trips: recent, activities: [], isRecent: true,
                                     tripTotal: MatchTotal(count: recent.count, isAtLeast: false, hasMore: false),
                                     activityTotal: .zero)
            }
            if terms.needsLongerWord {
                return SearchResults(trips: [], activities: [], isRecent: false, tripTotal: .zero, activityTotal: .zero,
                                     needsLongerWord: true)
            }
            let tripPage = try SubstringSearch.trips.page(matching: terms, in: trips, on: connection)
            let activityPage = try SubstringSearch.activities.page(matching: terms, in: activities, on: connection)
            // Nothing matches at all (a page past the end of matches is no miss).
            if tripPage.total.count == 0, activityPage.total.count == 0 {
                return SearchResults(trips: [], activities: [], isRecent: false, tripTotal: .zero, activityTotal: .zero,
                                     didYouMean: try suggestion(for: terms, on: connection))
            }
            let matchedActivities = try connection.fetchKept(Activity.self, from: "Activity", select: Activity.selection,
                                                             rowIDs: activityPage.ids)
            let tripNames = Dictionary(
                try connection.fetchKept(Trip.self, from: "Trip", select: Trip.selection,
                                         rowIDs: Array(Set(matchedActivities.map(\.tripID)))).map { ($0.id, $0.name) },
                uniquingKeysWith: { first, _ in first })
            return SearchResults(
                trips: try connection.fetchKept(Trip.self, from: "Trip", select: Trip.selection, rowIDs: tripPage.ids),
                activities: matchedActivities.compactMap { activity in
                    tripNames[activity.tripID].map { ActivityMatch(activity: activity, tripName: $0) }
                },
                isRecent: false, tripTotal: tripPage.total, activityTotal: activityPage.total)
        }
    }
}

/// A near spelling of `terms` that finds something, for a search that found nothing.
private func suggestion(for terms: SearchTerms, on connection: Connection) throws -> String? {
    guard let corrected = try SearchSuggestion.suggestion(for: terms, on: connection) else { return nil }
    let correctedTerms = SearchTerms(corrected)
    let findsSomething = try [SubstringSearch.trips, .activities].contains { search in
        try !search.page(matching: correctedTerms, in: 0..<1, on: connection).ids.isEmpty
    }
    return findsSomething ? corrected : nil
}

/// Search over one table, one page in result order (rank, then name), in bounded time on large
/// tables.
///
/// Candidates come from one index lookup (`SearchCandidates`: trigrams, or for a word of two
/// characters the trigrams that start with it) and `instr` keeps the rows that contain every
/// word. At most `matchPool` matches are gathered (in index order), counted, and sorted; pages
/// are cut from that pool. With fewer matches, which is the rule for any specific search, that
/// is exactly all matches in order; with more (a very common word) paging ends at the pool,
/// found without sorting a hundred thousand rows. One row past the page tells whether more follow.
///
/// Which rows match reads names alone, so it is kept across commits that change no name
/// (`fetchAllKept`: a check-off leaves it current); the page's records are then read by id,
/// each kept until its own row changes (`fetchKept`).
struct SubstringSearch: Sendable {
    /// The pool's parts: SELECTs of `id, name_folded, name, rank` (0 before 1) that never
    /// yield a row twice, together every match.
    let branches: @Sendable (SearchTerms, Connection) throws -> [SQLPart]

    static let trips = SubstringSearch(branches: SearchCandidates.tripBranches)
    static let activities = SubstringSearch(branches: SearchCandidates.activityBranches)

    static let matchPool = SearchResults.matchPool

    /// The ids of the matching rows at the positions `range`, and the total.
    func page(matching terms: SearchTerms, in range: Range<Int>, on connection: Connection) throws -> (ids: [Int64], total: MatchTotal) {
        let offset = max(0, range.lowerBound)
        let limit = max(0, range.upperBound - offset)
        let pool = try branches(terms, connection).joined(separator: " UNION ALL ") + SQLPart(" LIMIT \(Self.matchPool)")
        // The pool is sorted on its own small rows; only the page is fetched whole.
        let matches = try connection.fetchAllKept("""
            WITH pool AS (\(pool.sql))
            SELECT id, (SELECT count(*) FROM pool) AS match_count FROM pool
            ORDER BY rank, name_folded, name, id LIMIT ? OFFSET ?
            """, pool.arguments + [limit + 1, offset])
        let total: MatchTotal
        if let first = matches.first {
            let count = try first.decode("match_count", as: Int.self)
            total = MatchTotal(count: count, isAtLeast: count >= Self.matchPool, hasMore: matches.count > limit)
        } else if offset == 0 {
            // No first page, no match: counting would run the index search a second time.
            total = .zero
        } else {
            // A page past the end has no row to count from.
            let count = try connection.fetchAllKept("WITH pool AS (\(pool.sql)) SELECT count(*) FROM pool", pool.arguments)
                .first?.decode(at: 0, as: Int.self) ?? 0
            total = MatchTotal(count: count, isAtLeast: count >= Self.matchPool, hasMore: false)
        }
        return (matches.prefix(limit).map { $0["id"] as Int64 }, total)
    }
}

/// SQL and its arguments, in the order of its placeholders.
struct SQLPart {
    var sql: String
    var arguments: [any DatabaseValueConvertible]

    init(_ sql: String, _ arguments: [any DatabaseValueConvertible] = []) {
        self.sql = sql
        self.arguments = arguments
    }

    static func + (lhs: SQLPart, rhs: SQLPart) -> SQLPart {
        SQLPart(lhs.sql + rhs.sql, lhs.arguments + rhs.arguments)
    }
}

extension Array where Element == SQLPart {
    func joined(separator: String) -> SQLPart {
        SQLPart(map(\.sql).joined(separator: separator), flatMap(\.arguments))
    }
}
