import Foundation
import Mustache
import WishlistCore

/// How trips, activities and goals appear in templates. One place, shared by pages,
/// live-update fragments and the JSON API's links.
enum TripViews {
    static let placeholderURL = "/static/images/placeholder.svg"
    static let placeholderSize = (width: 480, height: 360)

    static func card(_ trip: Trip) -> MustacheValue {
        var value: [String: MustacheValue] = [
            "id": .int(Int(trip.id)),
            "name": .string(trip.name),
            "isComplete": .bool(trip.isComplete),
            "activityCount": .int(trip.activityCount),
            "activityLabel": .string(trip.activityCount == 1 ? "1 Activity" : "\(trip.activityCount) Activities"),
        ]
        if let subtitle = trip.subtitle, !subtitle.isEmpty { value["subtitle"] = .string(subtitle) }
        value.merge(thumbnail(trip)) { $1 }
        return .object(value)
    }

    static func cards(_ trips: [Trip]) -> MustacheValue {
        .array(trips.map(card))
    }

    static func thumbnail(_ trip: Trip) -> [String: MustacheValue] {
        guard let photo = trip.photo else {
            return [
                "thumbnailURL": .string(placeholderURL),
                "thumbnailWidth": .int(placeholderSize.width),
                "thumbnailHeight": .int(placeholderSize.height),
            ]
        }
        return [
            "thumbnailURL": .string(PhotoRoutes.thumbnailURL(tripID: trip.id, version: photo.version)),
            "thumbnailWidth": .int(photo.thumbnailWidth),
            "thumbnailHeight": .int(photo.thumbnailHeight),
        ]
    }

    static func collectionOptions(selected: String?) -> MustacheValue {
        .array(TripCollection.allCases.map { collection in
            ["value": .string(collection.rawValue), "label": .string(collection.title), "selected": .bool(collection.rawValue == selected)]
        })
    }

    static func percent(_ fraction: Double) -> Int {
        Int((fraction * 100).rounded())
    }
}

extension Date {
    /// "November 29, 2026", for badges.
    var longDateText: String {
        formatted(.dateTime.year().month(.wide).day())
    }
}
