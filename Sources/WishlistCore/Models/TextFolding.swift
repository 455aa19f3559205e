import Foundation

extension String {
    /// The case- and accent-folded form that search and name ordering use ("Café" → "cafe").
    /// Stored beside each name (`name_folded`) because SQLite cannot fold accents.
    public var folded: String {
        // Plain ASCII has no accents: lowercasing is the whole fold, and much cheaper (bulk imports).
        guard !utf8.allSatisfy({ $0 < 0x80 }) else { return lowercased() }
        let folded = folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        guard folded.unicodeScalars.contains(where: { Self.strokedLetters[$0] != nil }) else { return folded }
        return String(String.UnicodeScalarView(folded.unicodeScalars.map { Self.strokedLetters[$0] ?? $0 }))
    }

    /// Letters whose mark is drawn through them, so Unicode has no decomposition to drop it
    /// from: "Tromsø" must still be found by "tromso", as libgeonames finds it. Lowercase only:
    /// case folding comes first. One scalar for one, so highlighting keeps its positions.
    /// Names stored before folded them as they are: `Schema.destinations` folds those again.
    static let strokedLetters: [Unicode.Scalar: Unicode.Scalar] = [
        "ø": "o", "ł": "l", "đ": "d", "ħ": "h", "ŧ": "t", "ı": "i", "ƀ": "b", "ɨ": "i", "ʉ": "u",
    ]

    /// True when every character is printable ASCII (no control characters, no Unicode rules needed).
    var isPrintableASCII: Bool {
        utf8.allSatisfy { (0x20..<0x7F).contains($0) }
    }
}
