import Foundation
import HTTPServer
import Places
import WishlistCore

/// The place search behind the trip form's Destination field: `GET /places?q=kyoto` answers the
/// matching cities as JSON (the script's suggestions); the form without script shows the same
/// places as choices (`TripForm.placeChoices`). A picked place travels as its `PlaceToken`.
struct PlaceRoutes {
    let app: WishlistApp

    /// Most places one search answers: a list a person reads, never a dump of the gazetteer.
    static let maxResults = 10

    static let path = "/places"

    func register(on router: inout Router) {
        router.get(Self.path) { request in
            let query = try Self.query(request.query["q"])
            return try .json(PlaceListJSON(query: query, places: PlaceSearch.search(query, limit: Self.maxResults).map(PlaceJSON.init)))
        }
    }

    /// The search text, trimmed; a 400 past `PlaceSearch.maximumQueryLength`.
    static func query(_ text: String?) throws -> String {
        let query = (text ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard query.count <= PlaceSearch.maximumQueryLength else {
            throw HTTPError(.badRequest, "Search for a place with at most \(PlaceSearch.maximumQueryLength) characters.")
        }
        return query
    }
}

/// A picked place as the form carries it (the hidden `place` field, the choices' values): its
/// `PlaceIdentifier` as JSON in base64url, which the server resolves again through
/// `PlaceSearch.place(for:)`, so a position never comes from the client.
enum PlaceToken {
    /// Far above any real identifier; longer input is not decoded at all.
    static let maximumLength = 1_000

    static func token(for identifier: PlaceIdentifier) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = (try? encoder.encode(identifier)) ?? Data()
        return data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The destination a form or a script sent: the place `token` names while `name` is still
    /// its label (text typed after picking is free text), else `name` as free text.
    static func destination(named name: String, token: String?) -> TripDestination {
        let name = name.trimmingCharacters(in: .whitespaces)
        guard let picked = place(for: token), picked.label == name else { return TripDestination(name: name) }
        return TripDestination(picked)
    }

    /// The place a token names, if it is well formed and the gazetteer still has it.
    static func place(for token: String?) -> Place? {
        guard let token, !token.isEmpty, token.utf8.count <= maximumLength else { return nil }
        var base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: base64),
              let identifier = try? JSONDecoder().decode(PlaceIdentifier.self, from: data) else { return nil }
        return PlaceSearch.place(for: identifier)
    }
}

// MARK: JSON shapes (stable field names for scripts)

struct PlaceListJSON: Encodable {
    let query: String
    let places: [PlaceJSON]
}

struct PlaceJSON: Encodable {
    /// "Kyoto, Japan": what the Destination field shows once picked.
    let label: String
    let name: String
    let region: String
    let country: String
    let latitude: Double
    let longitude: Double
    /// The value for the form's `place` field.
    let token: String

    init(_ place: Place) {
        label = place.label
        name = place.name
        region = place.region
        country = place.country
        latitude = place.coordinate.latitude
        longitude = place.coordinate.longitude
        token = PlaceToken.token(for: place.identifier)
    }
}
