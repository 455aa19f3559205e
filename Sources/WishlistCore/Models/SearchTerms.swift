/// A search query as the words a match must contain, each somewhere, in any order: folded like
/// names (`String.folded`), split at whitespace, a quoted phrase ("night market", also in curly
/// quotes) kept as one word. A quote without its closing quote is an ordinary character.
public struct SearchTerms: Hashable, Sendable {
    /// Distinct, non-empty, in the order typed.
    public let words: [String]

    public init(_ query: String) {
        var words: [String] = []
        var rest = Substring(query.folded)
        while let start = rest.firstIndex(where: { !$0.isWhitespace }) {
            rest = rest[start...]
            let word: Substring
            if Self.opensPhrase(rest.first!), let end = rest.dropFirst().firstIndex(where: Self.closesPhrase) {
                // Inner whitespace counts as one space, the way names are usually written.
                word = Substring(rest[rest.index(after: start)..<end].split(whereSeparator: \.isWhitespace).joined(separator: " "))
                rest = rest[rest.index(after: end)...]
            } else {
                let end = rest.firstIndex(where: \.isWhitespace) ?? rest.endIndex
                word = rest[..<end]
                rest = rest[end...]
            }
            if !word.isEmpty && !words.contains(String(word)) { words.append(String(word)) }
        }
        self.words = words
    }

    /// True when words were typed but none has two characters: no index answers single letters
    /// (each is in most names), so the search asks for more instead of scanning.
    public var needsLongerWord: Bool {
        !words.isEmpty && words.allSatisfy { $0.unicodeScalars.count < 2 }
    }

    /// The word that picks the candidates: the longest (the rarest, as a rule), the first of equals.
    var longestWord: String? {
        words.max { $0.unicodeScalars.count < $1.unicodeScalars.count }
    }

    private static func opensPhrase(_ character: Character) -> Bool { character == "\"" || character == "“" }
    private static func closesPhrase(_ character: Character) -> Bool { character == "\"" || character == "”" }
}
