import Foundation
import Persistence
import WishlistCore

/// Search latency through `WishlistStore.search` (trigram index, ordered walk for common or
/// short needles) against the same results found by a plain `LIKE '%needle%'` on the folded
/// names, both on the same database in the same run.
struct SearchBenchmark {
    let store: WishlistStore
    let iterations: Int

    /// Needles chosen against the generated sample's vocabulary: rare phrases, common words,
    /// accented text, a miss, and 1–2 character needles (below the trigram index's reach).
    static let needles = [
        "kyoto food tour", "swim the glacier in bled", "crêpes", "zürich", "tromso",
        "night market", "hike", "no such place", "ky", "zq", "a",
    ]

    func run() throws {
        for needle in Self.needles {
            let indexed = try Samples.measure(iterations: iterations) { _ = try store.search(needle) }
            let scanned = try Samples.measure(iterations: iterations) { _ = try likeScan(needle) }
            let isShort = needle.unicodeScalars.count < 3
            printRow("search “\(needle)”: median / p99 (\(indexed.count) runs)",
                     "\(format(indexed.median)) / \(format(indexed.p99)) ms",
                     "\(format(scanned.median)) / \(format(scanned.p99)) ms (LIKE)",
                     ratio(indexed.median, scanned.median),
                     isShort ? "none (1–2 chars)" : "p99 < 5 ms",
                     isShort ? "" : meets(indexed.p99 < 5))
        }
    }

    /// The same two queries as the store (same columns decoded into the same models, same order
    /// and limits), with the predicate as a plain LIKE on the folded column.
    private func likeScan(_ text: String) throws {
        let needle = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        let pattern = "%\(needle)%"
        try store.database.read { connection in
            _ = try connection.fetchAll(Trip.self, """
                SELECT \(Trip.selection) FROM Trip WHERE name_folded LIKE ?
                ORDER BY name_folded, name, id LIMIT 50
                """, [pattern])
            _ = try connection.fetchAll("""
                SELECT \(Activity.selection), Trip.name AS trip_name FROM Activity JOIN Trip ON Trip.id = Activity.trip_id
                WHERE Activity.name_folded LIKE ? ORDER BY Activity.name_folded, Activity.name, Activity.id LIMIT 100
                """, [pattern]).map { (try Activity(row: $0), try $0.decode("trip_name", as: String.self)) }
        }
    }
}
