import Calendars
import Foundation
import HTTPServer
import WishlistCore

/// Trips for calendar apps (RFC 5545, written by libical): `/trips/:id/calendar.ics`, the trip's
/// dates as an all-day event with its place, position and address, and each activity as a to-do
/// related to it (completed when checked). Read from the trip page's checklist query, so the
/// file says what the page shows. UIDs are the trip's and activities' ids, which never change
/// (not even through an export and import), so a calendar updates instead of duplicating.
struct CalendarRoutes {
    let app: WishlistApp

    func register(on router: inout Router) {
        router.get("/trips/:id/calendar.ics") { request in try tripCalendar(request) }
    }

    private func tripCalendar(_ request: Request) throws -> Response {
        let id = try RecordID(request.parameters["id"], entity: "trip").value
        guard let checklist = try app.store.fetch(ActivityListFragment(tripID: id).query) else {
            throw HTTPError(.notFound, "There is no trip number \(id). It may have been deleted.")
        }
        var document = CalendarDocument(productID: "-//Wishlist//Trips//EN", stamp: app.store.clock.now())
        let trip = checklist.trip
        let tripUID = Self.uid(trip: trip.id)
        if let start = trip.startDate {
            let end = trip.endDate ?? start
            document.events.append(CalendarEvent(
                uid: tripUID, start: Self.day(start), end: Self.day(end), summary: trip.name,
                location: trip.destination?.name,
                position: trip.destination?.coordinate.map { ($0.latitude, $0.longitude) },
                url: Self.origin(of: request) + "/trips/\(trip.id)",
                description: Self.description(trip.subtitle, checklist.activities)))
        }
        document.todos = checklist.activities.map { activity in
            CalendarTodo(uid: Self.uid(activity: activity.id), relatedTo: tripUID, summary: activity.name,
                         completed: activity.isComplete ? activity.dateEdited : nil)
        }
        var response = Response(body: .bytes(document.encoded()))
        response.headers["Content-Type"] = CalendarDocument.mediaType
        response.headers["Content-Disposition"] = "attachment; filename=\"trip-\(trip.id).ics\""
        response.headers["Cache-Control"] = "private, no-cache"
        return response
    }

    static func uid(trip id: Trip.ID) -> String { "trip-\(id)@wishlist" }
    static func uid(activity id: Activity.ID) -> String { "activity-\(id)@wishlist" }

    private static func day(_ date: CalendarDate) -> CalendarDay {
        CalendarDay(year: date.year, month: date.month, day: date.day)
    }

    /// The subtitle, then the checklist, one activity a line ("✓" when done).
    private static func description(_ subtitle: String?, _ activities: [Activity]) -> String? {
        let lines = (subtitle.map { [$0] } ?? []) + activities.map { "\($0.isComplete ? "✓" : "–") \($0.name)" }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }

    /// The scheme and host this request came to (the Host header passed `HostValidation`).
    private static func origin(of request: Request) -> String {
        "\(request.isSecure ? "https" : "http")://\(request.headers["Host"] ?? "localhost")"
    }
}
