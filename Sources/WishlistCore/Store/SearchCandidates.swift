import Persistence

/// The pool branches of `SubstringSearch`: which rows may match, from an index, and the
/// conditions that keep the true matches.
///
/// A trip matches when its name contains every word (a destination, once trips have one, joins
/// the name here: in `tripBranches`' conditions and in the trigram index). An activity matches
/// when every word is in its own name or its trip's name and at least one is in its own;
/// activities with every word in their own name rank first.
enum SearchCandidates {
    static func tripBranches(_ terms: SearchTerms, on connection: Connection) throws -> [SQLPart] {
        try NameIndex.trip.sources(containingAll: terms.words, on: connection).map { source in
            SQLPart("SELECT Trip.id AS id, Trip.name_folded AS name_folded, Trip.name AS name, 0 AS rank FROM \(source.from) WHERE ")
                + source.condition + SQLPart(" AND ") + all(terms.words.map { contains("Trip", $0) })
        }
    }

    /// Several words, one of three characters or more: one lookup in `ActivityAndTripSearch`
    /// asks for trigrams of several words wherever each is. Otherwise every match has the (first)
    /// longest word in its own name (the first branches: one word is looked for in the names
    /// alone, which its trip's names would only add candidates to) or else, for two-character
    /// words only, in its trip's (the last ones).
    static func activityBranches(_ terms: SearchTerms, on connection: Connection) throws -> [SQLPart] {
        guard let longest = terms.longestWord else { return [] }
        let select = "SELECT Activity.id AS id, Activity.name_folded AS name_folded, Activity.name AS name"
        let rank = SQLPart("NOT (") + all(terms.words.map { contains("Activity", $0) }) + SQLPart(") AS rank")
        let eachAnywhere = all(terms.words.map { contains("Activity", $0) + SQLPart(" OR ") + contains("Trip", $0) })
        let anyOwn = SQLPart("(") + terms.words.map { contains("Activity", $0) }.joined(separator: " OR ") + SQLPart(")")
        if terms.words.count > 1, let query = NameIndex.trigramQuery(for: terms.words) {
            return [SQLPart("\(select), ") + rank + SQLPart("""
                 FROM ActivityAndTripSearch JOIN Activity ON Activity.id = ActivityAndTripSearch.rowid
                JOIN Trip ON Trip.id = Activity.trip_id WHERE ActivityAndTripSearch MATCH ? AND
                """, [query]) + eachAnywhere + SQLPart(" AND ") + anyOwn]
        }
        // One word is in the activity's own name, so its trip's row is not read at all: a seek
        // per candidate, a sixth of the activity query of `/search?q=kyoto`.
        let isOneWord = terms.words.count == 1
        let own = try NameIndex.activity.sources(containingAll: [longest], on: connection).map { source in
            SQLPart("\(select), ") + rank + SQLPart(" FROM \(source.from)\(isOneWord ? "" : " JOIN Trip ON Trip.id = Activity.trip_id") WHERE ")
                + source.condition + SQLPart(" AND ") + contains("Activity", longest) + (isOneWord ? SQLPart("") : SQLPart(" AND ") + eachAnywhere)
        }
        guard !isOneWord else { return own }
        let viaTrip = try NameIndex.trip.sources(containingAll: [longest], on: connection).map { source in
            SQLPart("\(select), 1 AS rank FROM \(source.from) JOIN Activity ON Activity.trip_id = Trip.id WHERE ")
                + source.condition + SQLPart(" AND ") + contains("Trip", longest)
                + SQLPart(" AND NOT ") + contains("Activity", longest) + SQLPart(" AND ") + anyOwn + SQLPart(" AND ") + eachAnywhere
        }
        return own + viaTrip
    }

    private static func contains(_ table: String, _ word: String) -> SQLPart {
        SQLPart("instr(\(table).name_folded, ?) > 0", [word])
    }

    /// The conditions joined with AND, each in parentheses; "1" for none.
    private static func all(_ conditions: [SQLPart]) -> SQLPart {
        conditions.isEmpty ? SQLPart("1") : conditions.map { SQLPart("(") + $0 + SQLPart(")") }.joined(separator: " AND ")
    }
}

/// A table's folded names as search finds them: the FTS5 trigram index (`TripSearch`), its
/// vocabulary, and the index on each name's last two characters (`Schema.searchWords`).
struct NameIndex {
    let table: String
    let searchTable: String

    static let trip = NameIndex(table: "Trip", searchTable: "TripSearch")
    static let activity = NameIndex(table: "Activity", searchTable: "ActivitySearch")

    /// FROM clauses (naming `table` by its name) with conditions that together yield, once each,
    /// every row whose name contains all of `words`, and few others.
    ///
    /// Every name containing a word of three characters or more contains each of its trigrams,
    /// so the trigram index yields a superset. A word of two characters starts a trigram of the
    /// name unless it ends the name: the index's terms starting with it (a range of its
    /// vocabulary) find the first kind, the name-ending index the rest. None of this walks a
    /// whole index; words of one character are left to the caller's conditions.
    func sources(containingAll words: [String], on connection: Connection) throws -> [(from: String, condition: SQLPart)] {
        let fromIndex = "\(searchTable) JOIN \(table) ON \(table).id = \(searchTable).rowid"
        if let query = Self.trigramQuery(for: words) {
            return [(fromIndex, SQLPart("\(searchTable) MATCH ?", [query]))]
        }
        guard let pair = words.first(where: { $0.unicodeScalars.count == 2 }) else { return [] }
        let terms = try connection.fetchAll("SELECT term FROM \(searchTable)Vocabulary WHERE term >= ? AND term < ?",
                                            [pair, pair + "\u{10FFFF}"]).map { $0["term"] as String }
        let name = "\(table).name_folded"
        let atTheEnd = (table, SQLPart("substr(\(name), -2) = ? AND instr(substr(\(name), 1, length(\(name)) - 1), ?) = 0",
                                       [pair, pair]))
        guard !terms.isEmpty else { return [atTheEnd] }
        return [(fromIndex, SQLPart("\(searchTable) MATCH ?", [terms.map(Self.quoted).joined(separator: " OR ")])), atTheEnd]
    }

    /// An FTS5 query asking for three trigrams at most: the first of each of the three longest
    /// words, and while there are fewer such words the longest one's last; nil when no word has
    /// three characters. Each trigram is quoted, so no user text is read as query syntax.
    ///
    /// Why one per word: FTS5 reads the whole list of rows of each trigram asked for, which for a
    /// common word is tens of thousands, and the trigrams of one word are found together (every
    /// name with "gla" of "glacier" has its "ier"), so a second one of a word costs a list and
    /// removes almost no candidate, where another word's removes most.
    static func trigramQuery(for words: [String]) -> String? {
        let byLength = words.map(trigrams).filter { !$0.isEmpty }
            .enumerated().sorted { ($0.element.count, $1.offset) > ($1.element.count, $0.offset) }.map(\.element)
        guard let longest = byLength.first else { return nil }
        var seen = Set<String>()
        let others = byLength.dropFirst().prefix(2).map { $0[0] }
        return ([longest.first!] + (others.count < 2 ? [longest.last!] : []) + others)
            .filter { seen.insert($0).inserted }
            .map(quoted)
            .joined(separator: " AND ")
    }

    /// The text's trigrams, as the index splits names.
    static func trigrams(_ text: String) -> [String] {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count >= 3 else { return [] }
        return (0...(scalars.count - 3)).map { start in
            var trigram = String.UnicodeScalarView()
            trigram.append(contentsOf: scalars[start..<(start + 3)])
            return String(trigram)
        }
    }

    static func quoted(_ term: String) -> String {
        "\"" + term.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
