import Foundation
import Persistence
import WishlistCore

/// Search latency through `WishlistStore.search` (trigram index, its vocabulary for two-letter
/// words) against the same results found by a plain `LIKE '%word%'` per word on the folded
/// names, both on the same database in the same run.
struct SearchBenchmark {
    let store: WishlistStore
    let iterations: Int

    /// Needles chosen against the generated sample's vocabulary: rare phrases, common words,
    /// accented text, a miss, words in either order and split between an activity and its trip
    /// ("kona snorkel" misses: the sample has no Kona), quoted, and 1–2 character words (below
    /// the trigram index's reach; single letters alone are not searched).
    static let needles = [
        "kyoto food tour", "swim the glacier in bled", "crêpes", "zürich", "tromso", "night market",
        "\"night market\"", "hike", "no such place", "cafe zurich", "zurich cafe", "kona snorkel",
        "ky", "zq", "a", "a b",
    ]

    func run() throws {
        for needle in Self.needles {
            let indexed = try Samples.measure(iterations: iterations) { _ = try store.search(needle) }
            let scanned = try Samples.measure(iterations: iterations) { _ = try likeScan(needle) }
            printRow("search “\(needle)”: median / p99 (\(indexed.count) runs)",
                     "\(format(indexed.median)) / \(format(indexed.p99)) ms",
                     "\(format(scanned.median)) / \(format(scanned.p99)) ms (LIKE)",
                     ratio(indexed.median, scanned.median), "p99 < 5 ms", meets(indexed.p99 < 5))
        }
    }

    /// The same two queries as the store (same columns decoded into the same models, same
    /// matches, order and limits), with each word as a plain LIKE on the folded columns.
    private func likeScan(_ text: String) throws {
        let patterns: [any DatabaseValueConvertible] = SearchTerms(text).words.map { "%\($0)%" }
        let each = { (condition: String) in patterns.isEmpty ? "0" : patterns.map { _ in condition }.joined(separator: " AND ") }
        let inActivity = "Activity.name_folded LIKE ?"
        try store.database.read { connection in
            _ = try connection.fetchAll(Trip.self, """
                SELECT \(Trip.selection) FROM Trip WHERE \(each("name_folded LIKE ?"))
                ORDER BY name_folded, name, id LIMIT 50
                """, patterns)
            _ = try connection.fetchAll("""
                SELECT \(Activity.selection), Trip.name AS trip_name FROM Activity JOIN Trip ON Trip.id = Activity.trip_id
                WHERE \(each("(\(inActivity) OR Trip.name_folded LIKE ?)")) AND (\(patterns.map { _ in inActivity }.joined(separator: " OR ")))
                ORDER BY NOT (\(each(inActivity))), Activity.name_folded, Activity.name, Activity.id LIMIT 100
                """, patterns.flatMap { [$0, $0] } + patterns + patterns)
                .map { (try Activity(row: $0), try $0.decode("trip_name", as: String.self)) }
        }
    }
}
