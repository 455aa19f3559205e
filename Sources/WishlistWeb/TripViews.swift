import Foundation
import HTTPServer
import Mustache
import WishlistCore

/// How a trip appears as a card: in collection rows, the carousel, search results and "Show all".
struct TripCardView: MustacheConvertible {
    let trip: Trip
    /// Fields the list showing the card adds (its position, a highlighted name).
    var extra: [String: MustacheValue] = [:]
    /// False under a heading that already names the destination (Trips grouped by destination).
    var showsDestination = true

    var mustacheValue: MustacheValue {
        // Sized up front: a page builds dozens of these, and growing a dictionary rehashes it.
        var value = [String: MustacheValue](minimumCapacity: 10 + extra.count)
        value["id"] = .int(Int(trip.id))
        value["name"] = .string(trip.name)
        value["nameLength"] = .string(TripViews.nameLength(trip.name))
        value["isComplete"] = .bool(trip.isComplete)
        value["activityCount"] = .int(trip.activityCount)
        value["activityLabel"] = .string(trip.activityCount == 1 ? "1 Activity" : "\(trip.activityCount) Activities")
        if let subtitle = trip.subtitle, !subtitle.isEmpty { value["subtitle"] = .string(subtitle) }
        // Each on its own line: a long place name never pushes the dates, which lists sort by, out of sight.
        if let when = TripViews.dateRangeText(start: trip.startDate, end: trip.endDate) { value["when"] = .string(when) }
        if showsDestination, let destination = trip.destination { value["where"] = .string(destination.name) }
        if let photo = trip.photo {
            value["thumbnailURL"] = .string(PhotoRoutes.thumbnailURL(.trip(trip.id), version: photo.version))
            value["thumbnailSourceSet"] = .string(PhotoRoutes.thumbnailSourceSet(.trip(trip.id), photo: photo))
            value["thumbnailWidth"] = .int(photo.thumbnailWidth)
            value["thumbnailHeight"] = .int(photo.thumbnailHeight)
        } else {
            value["thumbnailWidth"] = .int(TripViews.placeholderSize.width)
            value["thumbnailHeight"] = .int(TripViews.placeholderSize.height)
        }
        value.merge(extra) { $1 }
        return .object(value)
    }
}

/// What several views of trips share.
enum TripViews {
    /// `Content-Disposition` of a download of one trip, named after it (`trip-<id>` when its name
    /// has no letter or digit to keep).
    static func attachment(_ trip: Trip, fileExtension: String) -> String {
        ContentDisposition.attachment(title: trip.name, fileExtension: fileExtension, fallback: "trip-\(trip.id)")
    }

    /// How long a name is, in steps the style sheets size it by (`data-name-length`): a long name
    /// is set smaller, so that any name up to the 200-character limit takes a few lines at any
    /// width. Counted in characters, which is what the eye sees.
    static func nameLength(_ name: String) -> String {
        switch name.count {
        case ...30: "short"
        case ...60: "long"
        case ...110: "longer"
        default: "longest"
        }
    }

    /// Shown where a trip has no photo: among the static files, so templates name it
    /// (`{{static}}images/placeholder.svg`) where a view gives no photo's URL.
    static let placeholderImage = "images/placeholder.svg"
    static let placeholderSize = (width: 480, height: 360)

    static func collectionOptions(selected: String?) -> MustacheValue {
        .array(TripCollection.allCases.map { collection in
            ["value": .string(collection.rawValue), "label": .string(collection.title), "selected": .bool(collection.rawValue == selected)]
        })
    }

    /// A page of trip cards and its pager (`partials/pager`): the page `url` followed by a number leads to.
    static func pagedCards(_ trips: [Trip], pageNumber page: Int, pageCount: Int, tripCount: Int, url: String) -> [String: MustacheValue] {
        var fields: [String: MustacheValue] = [
            "trips": .array(trips.map { TripCardView(trip: $0).mustacheValue }),
            "hasTrips": .bool(!trips.isEmpty),
            "pageText": .string("Page \(page) of \(pageCount) · \(tripCount) trips"),
        ]
        if page > 1 { fields["previousURL"] = .string("\(url)\(page - 1)") }
        if page < pageCount { fields["nextURL"] = .string("\(url)\(page + 1)") }
        return fields
    }

    static func percent(_ fraction: Double) -> Int {
        Int((fraction * 100).rounded())
    }

    /// "Kyoto, Japan · 28 Mar – 6 Apr 2027": a trip's destination and dates on one line, either
    /// alone when the trip has only one; nil when it has neither.
    static func whereAndWhen(_ trip: Trip) -> String? {
        let parts = [trip.destination?.name, dateRangeText(start: trip.startDate, end: trip.endDate)].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// "28 Mar – 6 Apr 2027", "10 – 17 Apr 2027", "27 Dec 2027 – 3 Jan 2028", "From 12 Apr 2027",
    /// "Until 6 Apr 2027": what is shared is said once.
    static func dateRangeText(start: CalendarDate?, end: CalendarDate?) -> String? {
        switch (start, end) {
        case (nil, nil): return nil
        case (let start?, nil): return "From \(start.dayText)"
        case (nil, let end?): return "Until \(end.dayText)"
        case (let start?, let end?):
            if start == end { return start.dayText }
            if start.year != end.year { return "\(start.dayText) – \(end.dayText)" }
            if start.month != end.month { return "\(start.day) \(CalendarDate.monthAbbreviations[start.month - 1]) – \(end.dayText)" }
            return "\(start.day) – \(end.dayText)"
        }
    }
}

extension Date {
    /// "November 29, 2026" in this machine's time zone, for badges. Spelled out here: the app
    /// speaks English only, and going through `formatted` loaded ICU's locale data, megabytes of
    /// resident memory for one date format (Benchmarks/README.md).
    var longDateText: String {
        let day = Self.gregorian.dateComponents([.year, .month, .day], from: self)
        return "\(Self.monthNames[(day.month ?? 1) - 1]) \(day.day ?? 1), \(day.year ?? 1970)"
    }

    static let gregorian: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        return calendar
    }()

    private static let monthNames = ["January", "February", "March", "April", "May", "June", "July",
                                     "August", "September", "October", "November", "December"]
}
