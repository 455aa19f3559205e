import Foundation
import HTTPServer
import WishlistCore

/// The version fields (`was`, `activity-was-<id>`) a write refused as changed meanwhile (412)
/// would need to go through now, in the `X-Wishlist-Versions` header as a url-encoded form: a
/// write kept offline that the person chooses to keep anyway is sent again with them ("Keep
/// mine"), never without a version, which is refused.
enum CurrentVersions {
    static let header = "X-Wishlist-Versions"

    /// ASCII alone: a header's bytes beyond it reach a script as Latin-1.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func headers(_ fields: [(name: String, value: String)]) -> HTTPHeaders {
        let encoded = fields.map { field in
            [field.name, field.value].map { $0.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "" }.joined(separator: "=")
        }
        return [header: encoded.joined(separator: "&")]
    }

    /// The trip form's: the trip's `editVersion` and each activity's name.
    static func tripForm(_ checklist: TripChecklist) -> [(name: String, value: String)] {
        [("was", checklist.trip.editVersion)] + checklist.activities.map { (TripPage.renameVersionPrefix + String($0.id), $0.name) }
    }
}
