import Foundation

extension String {
    /// The case- and accent-folded form that search and name ordering use ("Café" → "cafe").
    /// Stored beside each name (`name_folded`) because SQLite cannot fold accents.
    var folded: String {
        folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
