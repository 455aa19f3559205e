import Foundation
import HTTPServer
import Mustache
import WishlistCore

/// The Search tab (`/search?q=`): trips and activities by name, ignoring case and accents.
struct SearchPage {
    let app: WishlistApp

    func register(on router: inout Router) {
        router.get("/search") { request in try app.pages.cached(request) { try render(request) } }
    }

    func render(_ request: Request) throws -> RenderedPage {
        let query = try SearchQuery(request.query["q"])
        let results = try app.store.search(query.text)
        var context = Self.resultsContext(results, query: query.text)
        context["query"] = .string(query.text)
        return try app.pages.render("search", for: request, tab: .search, context)
    }

    static func resultsContext(_ results: SearchResults, query: String) -> [String: MustacheValue] {
        [
            "query": .string(query),
            "isRecent": .bool(results.isRecent),
            "hasResults": .bool(!results.trips.isEmpty || !results.activities.isEmpty),
            "hasTrips": .bool(!results.trips.isEmpty),
            "hasActivities": .bool(!results.activities.isEmpty),
            "trips": .array(results.trips.map { trip in
                guard case .object(var card) = TripViews.card(trip) else { return .null }
                card["highlighted"] = highlighted(trip.name, query: query)
                return .object(card)
            }),
            "activities": .array(results.activities.map { match in
                [
                    "id": .int(Int(match.activity.id)),
                    "tripID": .int(Int(match.tripID)),
                    "tripName": .string(match.tripName),
                    "isComplete": .bool(match.activity.isComplete),
                    "highlighted": highlighted(match.activity.name, query: query),
                ]
            }),
        ]
    }

    static func highlighted(_ name: String, query: String) -> MustacheValue {
        ["segments": .array(Highlighter.segments(of: name, matching: query).map { segment in
            ["text": .string(segment.text), "isMatch": .bool(segment.isMatch)]
        })]
    }
}

/// The search text as typed, bounded so a huge query string cannot cost anything.
struct SearchQuery {
    static let maxLength = 200
    let text: String

    init(_ raw: String?) throws {
        let text = (raw ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.count <= Self.maxLength else {
            throw HTTPError(.badRequest, "Search for at most \(Self.maxLength) characters.")
        }
        self.text = text
    }
}

/// Splits a name into matched and unmatched runs, matching the way search does:
/// case- and accent-insensitively ("cafe" highlights "Café").
enum Highlighter {
    struct Segment: Equatable {
        let text: String
        let isMatch: Bool
    }

    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// One character folded. ASCII (most characters of a name) is lowercased in place: going
    /// through Foundation per character was half the search page's time in a profile.
    private static func fold(_ character: Character) -> String {
        character.isASCII ? character.lowercased() : fold(String(character))
    }

    static func segments(of name: String, matching query: String) -> [Segment] {
        let needle = fold(query)
        guard !needle.isEmpty else { return [Segment(text: name, isMatch: false)] }
        // Fold character by character, remembering which original character each folded one came from.
        let characters = Array(name)
        var folded: [Character] = []
        var origin: [Int] = []
        for (index, character) in characters.enumerated() {
            for foldedCharacter in fold(character) {
                folded.append(foldedCharacter)
                origin.append(index)
            }
        }
        let pattern = Array(needle)
        var matched = [Bool](repeating: false, count: characters.count)
        var start = 0
        while start + pattern.count <= folded.count {
            if Array(folded[start..<start + pattern.count]) == pattern {
                for position in start..<start + pattern.count { matched[origin[position]] = true }
                start += pattern.count
            } else {
                start += 1
            }
        }
        var segments: [Segment] = []
        for (character, isMatch) in zip(characters, matched) {
            if let last = segments.last, last.isMatch == isMatch {
                segments[segments.count - 1] = Segment(text: last.text + String(character), isMatch: isMatch)
            } else {
                segments.append(Segment(text: String(character), isMatch: isMatch))
            }
        }
        return segments
    }
}
