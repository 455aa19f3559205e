import Foundation
import Mustache
import WishlistCore

/// How trips, activities and goals appear in templates. One place, shared by pages,
/// live-update fragments and the JSON API's links.
enum TripViews {
    static let placeholderURL = "/static/images/placeholder.svg"
    static let placeholderSize = (width: 480, height: 360)

    static func card(_ trip: Trip) -> MustacheValue {
        // Sized up front: a page builds dozens of these, and growing a dictionary rehashes it.
        var value = [String: MustacheValue](minimumCapacity: 10)
        value["id"] = .int(Int(trip.id))
        value["name"] = .string(trip.name)
        value["isComplete"] = .bool(trip.isComplete)
        value["activityCount"] = .int(trip.activityCount)
        value["activityLabel"] = .string(trip.activityCount == 1 ? "1 Activity" : "\(trip.activityCount) Activities")
        if let subtitle = trip.subtitle, !subtitle.isEmpty { value["subtitle"] = .string(subtitle) }
        if let photo = trip.photo {
            value["thumbnailURL"] = .string(PhotoRoutes.thumbnailURL(tripID: trip.id, version: photo.version))
            value["thumbnailSourceSet"] = .string(PhotoRoutes.thumbnailSourceSet(tripID: trip.id, photo: photo))
            value["thumbnailWidth"] = .int(photo.thumbnailWidth)
            value["thumbnailHeight"] = .int(photo.thumbnailHeight)
        } else {
            value["thumbnailURL"] = .string(placeholderURL)
            value["thumbnailWidth"] = .int(placeholderSize.width)
            value["thumbnailHeight"] = .int(placeholderSize.height)
        }
        return .object(value)
    }

    static func cards(_ trips: [Trip]) -> MustacheValue {
        .array(trips.map(card))
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
    /// "November 29, 2026" in this machine's time zone, for badges. Spelled out here: the app
    /// speaks English only, and going through `formatted` loaded ICU's locale data, 4 MB of
    /// resident memory for one date format.
    var longDateText: String {
        let day = Self.gregorian.dateComponents([.year, .month, .day], from: self)
        return "\(Self.monthNames[(day.month ?? 1) - 1]) \(day.day ?? 1), \(day.year ?? 1970)"
    }

    private static let gregorian: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        return calendar
    }()

    private static let monthNames = ["January", "February", "March", "April", "May", "June", "July",
                                     "August", "September", "October", "November", "December"]
}
