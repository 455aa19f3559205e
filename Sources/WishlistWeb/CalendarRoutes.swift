import Calendars
import Foundation
import HTTPServer
import Persistence
import WishlistCore

/// Trips for calendar apps (RFC 5545, written by libical): `/trips/:id/calendar.ics` downloads
/// one trip; `CalendarFeeds` serves subscriptions. Both read `calendarEntries` and draw it with
/// `TripCalendar`, so the file and the feed say the same.
struct CalendarRoutes {
    let app: WishlistApp

    func register(on router: inout Router) {
        router.get("/trips/:id/calendar.ics") { request in try tripCalendar(request) }
    }

    private func tripCalendar(_ request: Request) throws -> Response {
        let id = try RecordID(request.parameters["id"], entity: "trip").value
        let (trip, entries) = try app.store.read { snapshot in
            guard let trip = try snapshot.fetch(.trip(id: id)) else {
                throw HTTPError(.notFound, "There is no trip number \(id). It may have been deleted.")
            }
            return (trip, try snapshot.fetch(.calendarEntries(in: .trip(id), limit: 1)))
        }
        let calendar = TripCalendar(name: trip.name, origin: request.origin, stamp: app.store.clock.now())
        var response = Response(body: .bytes(calendar.document(entries).encoded()))
        response.headers["Content-Type"] = CalendarDocument.mediaType
        response.headers["Content-Disposition"] = TripViews.attachment(trip, fileExtension: "ics")
        response.headers["Cache-Control"] = "private, no-cache"
        return response
    }
}

/// Trips with dates as calendar components: each an all-day event with its place, position,
/// address and checklist, each activity a to-do related to it (completed when checked). UIDs are
/// the trip's and activities' ids, which never change (not even through an export and import),
/// and each carries its newest change in the history, so a calendar updates instead of duplicating.
struct TripCalendar {
    static let productID = "-//Wishlist//Trips//EN"
    /// The calendar of every trip is called this; one trip's, after the trip.
    static let allTripsName = "Wishlist"
    /// A subscribed calendar app is asked to fetch it again after this (it may wait longer).
    static let refreshInterval = Duration.seconds(3600)
    /// What a calendar app lists it as.
    let name: String
    /// Where the events link back to: the scheme and host the request came to.
    let origin: String
    /// `DTSTAMP` of a component the history never saw (none, once the app has written it).
    let stamp: Date

    var opening: [UInt8] { document([]).opening }

    func document(_ entries: [CalendarEntry]) -> CalendarDocument {
        var document = CalendarDocument(productID: Self.productID, stamp: stamp)
        document.name = name
        document.refreshInterval = Self.refreshInterval
        for entry in entries {
            let trip = entry.trip
            guard let start = trip.startDate else { continue }
            document.events.append(CalendarEvent(
                uid: Self.uid(trip: trip.id), start: Self.day(start), end: Self.day(trip.endDate ?? start),
                summary: trip.name, location: trip.destination?.name,
                position: trip.destination?.coordinate.map { ($0.latitude, $0.longitude) },
                url: origin + "/trips/\(trip.id)",
                description: Self.description(trip.subtitle, entry.activities),
                revision: entry.revision.map(Self.revision)))
            document.todos += entry.activities.map { activity in
                CalendarTodo(uid: Self.uid(activity: activity.id), relatedTo: Self.uid(trip: trip.id), summary: activity.name,
                             completed: activity.isComplete ? activity.dateEdited : nil,
                             revision: entry.activityRevisions[activity.id].map(Self.revision))
            }
        }
        return document
    }

    static func uid(trip id: Trip.ID) -> String { "trip-\(id)@wishlist" }
    static func uid(activity id: Activity.ID) -> String { "activity-\(id)@wishlist" }

    /// The history token as `SEQUENCE`: tokens only grow, so every change raises it.
    private static func revision(_ revision: RowRevision) -> CalendarRevision {
        CalendarRevision(sequence: revision.token, lastModified: revision.timestamp)
    }

    private static func day(_ date: CalendarDate) -> CalendarDay {
        CalendarDay(year: date.year, month: date.month, day: date.day)
    }

    /// The subtitle, then the checklist, one activity a line ("✓" when done).
    private static func description(_ subtitle: String?, _ activities: [Activity]) -> String? {
        let lines = (subtitle.map { [$0] } ?? []) + activities.map { "\($0.isComplete ? "✓" : "–") \($0.name)" }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }
}
