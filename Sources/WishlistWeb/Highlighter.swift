import WishlistCore

/// Splits a name into matched and unmatched runs, matching the way search does: each word of
/// the query (`SearchTerms`), case- and accent-insensitively ("cafe" highlights "Café"). Made
/// once per query, used for every name on the page.
struct Highlighter {
    struct Segment: Equatable {
        let text: String
        let isMatch: Bool
    }

    /// The query's folded words as UTF-8. Matching bytes finds the same matches as matching
    /// scalars: UTF-8 is self-synchronizing.
    private let needles: [[UInt8]]

    init(query: String) {
        needles = SearchTerms(query).words.map { Array($0.utf8) }
    }

    func segments(of name: String) -> [Segment] {
        guard !needles.isEmpty else { return [Segment(text: name, isMatch: false)] }
        // An ASCII name (most names) folds by lowercasing its bytes, in the one pass that finds it
        // is ASCII: no `Character` and no trip through Foundation per letter, which was half the
        // search page's time in a profile, and no second copy of the bytes.
        let ascii = name.utf8.withContiguousStorageIfAvailable { asciiSegments(of: $0) } ?? asciiSegments(of: Array(name.utf8))
        if let ascii { return ascii }
        // Fold character by character, remembering which original character each folded byte came from.
        let characters = Array(name)
        var folded: [UInt8] = []
        var origin: [Int] = []
        for (index, character) in characters.enumerated() {
            let bytes = character.isASCII ? character.lowercased().utf8 : String(character).folded.utf8
            folded.append(contentsOf: bytes)
            origin.append(contentsOf: repeatElement(index, count: bytes.count))
        }
        var matched = [Bool](repeating: false, count: characters.count)
        for (position, isMatch) in Self.matches(of: needles, in: folded).enumerated() where isMatch {
            matched[origin[position]] = true
        }
        return Self.segments(matched) { String(characters[$0]) }
    }

    /// The segments of an ASCII name, or nil at its first byte past ASCII.
    private func asciiSegments(of bytes: some RandomAccessCollection<UInt8>) -> [Segment]? {
        var folded: [UInt8] = []
        folded.reserveCapacity(bytes.count)
        for byte in bytes {
            guard byte < 0x80 else { return nil }
            folded.append(byte >= 65 && byte <= 90 ? byte | 0x20 : byte)
        }
        let start = bytes.startIndex
        return Self.segments(Self.matches(of: needles, in: folded)) { range in
            String(decoding: bytes[bytes.index(start, offsetBy: range.lowerBound)..<bytes.index(start, offsetBy: range.upperBound)], as: UTF8.self)
        }
    }

    /// Which bytes of `haystack` fall in a (non-overlapping, leftmost) occurrence of any of `patterns`.
    private static func matches(of patterns: [[UInt8]], in haystack: [UInt8]) -> [Bool] {
        var matched = [Bool](repeating: false, count: haystack.count)
        for pattern in patterns {
            var start = 0
            while start + pattern.count <= haystack.count {
                if haystack[start..<start + pattern.count].elementsEqual(pattern) {
                    for position in start..<start + pattern.count { matched[position] = true }
                    start += pattern.count
                } else {
                    start += 1
                }
            }
        }
        return matched
    }

    /// One segment per run of equally matched elements, its text cut from the name at once.
    private static func segments(_ matched: [Bool], text: (Range<Int>) -> String) -> [Segment] {
        guard !matched.isEmpty else { return [] }
        var segments: [Segment] = []
        var start = 0
        for end in 1...matched.count where end == matched.count || matched[end] != matched[start] {
            segments.append(Segment(text: text(start..<end), isMatch: matched[start]))
            start = end
        }
        return segments
    }
}
