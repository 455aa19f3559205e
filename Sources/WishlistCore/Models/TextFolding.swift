import Foundation

extension String {
    /// The case- and accent-folded form that search and name ordering use ("Café" → "cafe").
    /// Stored beside each name (`name_folded`) because SQLite cannot fold accents.
    public var folded: String {
        // Plain ASCII has no accents: lowercasing is the whole fold, and much cheaper (bulk imports).
        utf8.allSatisfy { $0 < 0x80 } ? lowercased() : folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// True when every character is printable ASCII (no control characters, no Unicode rules needed).
    var isPrintableASCII: Bool {
        utf8.allSatisfy { (0x20..<0x7F).contains($0) }
    }
}
