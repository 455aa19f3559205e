import Persistence

/// "Did you mean …" for a search that found nothing ("kyotto", "japn"): each word of three letters
/// or more that no name holds is replaced by the closest word, within one edit (two for words of
/// five letters or more), among the names that share a trigram with it. Those names come from a
/// bounded number of index rows per word, so a miss costs a few lookups, not a scan.
enum SearchSuggestion {
    /// Rows read per word and per table: the names a near miss shares a trigram with.
    static let candidateRows = 200

    /// The corrected search text, or nil when no word could be corrected.
    static func suggestion(for terms: SearchTerms, on connection: Connection) throws -> String? {
        var changed = false
        let words = try terms.words.map { word in
            guard let closest = try closestWord(to: word, on: connection) else { return word }
            changed = changed || closest != word
            return closest
        }
        return changed ? words.joined(separator: " ") : nil
    }

    /// `word` itself when a name holds it, else the nearest word of the candidate names, else nil.
    private static func closestWord(to word: String, on connection: Connection) throws -> String? {
        let trigrams = NameIndex.trigrams(word)
        guard !trigrams.isEmpty, !word.contains(" ") else { return nil }
        let match = trigrams.map(NameIndex.quoted).joined(separator: " OR ")
        var candidates = Set<String>()
        for index in [NameIndex.trip, .activity] {
            for row in try connection.fetchAll("""
                SELECT name_folded FROM \(index.table) WHERE id IN
                    (SELECT rowid FROM \(index.searchTable) WHERE \(index.searchTable) MATCH ? LIMIT \(candidateRows))
                """, [match]) {
                let name: String = row["name_folded"]
                if name.contains(word) { return word }
                candidates.formUnion(name.split { !$0.isLetter && !$0.isNumber }.map(String.init))
            }
        }
        let allowed = word.count >= 5 ? 2 : 1
        return candidates.map { (candidate: $0, edits: editDistance(word, $0, atMost: allowed)) }
            .filter { $0.edits <= allowed }
            .min { ($0.edits, $0.candidate.count, $0.candidate) < ($1.edits, $1.candidate.count, $1.candidate) }?
            .candidate
    }

    /// Edits between `a` and `b` (insertions, deletions, substitutions, and swaps of two
    /// neighbours, the commonest slip: "tempels"), or `limit + 1` once it is sure to exceed `limit`.
    static func editDistance(_ a: String, _ b: String, atMost limit: Int) -> Int {
        let a = Array(a), b = Array(b)
        guard abs(a.count - b.count) <= limit else { return limit + 1 }
        var beforePrevious: [Int] = []
        var previous = Array(0...b.count)
        for i in a.indices {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for j in b.indices {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a[i] == b[j] ? 0 : 1))
                if i > 0, j > 0, a[i] == b[j - 1], a[i - 1] == b[j] {
                    current[j + 1] = min(current[j + 1], beforePrevious[j - 1] + 1)
                }
            }
            guard (current.min() ?? 0) <= limit else { return limit + 1 }
            (beforePrevious, previous) = (previous, current)
        }
        return previous[b.count]
    }
}
