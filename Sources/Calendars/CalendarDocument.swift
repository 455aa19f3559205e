import CICal
import Foundation

/// A day without time or zone, as a calendar's all-day events use them.
public struct CalendarDay: Hashable, Sendable {
    public let year: Int
    public let month: Int
    public let day: Int

    public init(year: Int, month: Int, day: Int) {
        (self.year, self.month, self.day) = (year, month, day)
    }
}

/// An all-day event (RFC 5545 VEVENT): from `start` to `end` inclusive, written with the
/// exclusive `DTEND` the standard asks for.
public struct CalendarEvent: Sendable {
    public var uid: String
    public var start: CalendarDay
    public var end: CalendarDay
    public var summary: String
    public var location: String?
    /// Latitude and longitude, for `GEO`.
    public var position: (latitude: Double, longitude: Double)?
    public var url: String?
    public var description: String?

    public init(uid: String, start: CalendarDay, end: CalendarDay, summary: String, location: String? = nil,
                position: (latitude: Double, longitude: Double)? = nil, url: String? = nil, description: String? = nil) {
        self.uid = uid
        self.start = start
        self.end = end
        self.summary = summary
        self.location = location
        self.position = position
        self.url = url
        self.description = description
    }
}

/// A task (an RFC 5545 VTODO component), related to another component by its UID.
public struct CalendarTodo: Sendable {
    public var uid: String
    public var relatedTo: String?
    public var summary: String
    /// When it was done; nil while it is not.
    public var completed: Date?

    public init(uid: String, relatedTo: String? = nil, summary: String, completed: Date? = nil) {
        self.uid = uid
        self.relatedTo = relatedTo
        self.summary = summary
        self.completed = completed
    }
}

/// An iCalendar document (`text/calendar`), built by libical, which escapes the text, folds the
/// lines at 75 octets and ends them with CRLF as RFC 5545 says.
public struct CalendarDocument: Sendable {
    public var productID: String
    public var events: [CalendarEvent] = []
    public var todos: [CalendarTodo] = []
    /// `DTSTAMP` of every component: when the document was made.
    public var stamp: Date

    public static let mediaType = "text/calendar; charset=utf-8"

    public init(productID: String, stamp: Date) {
        self.productID = productID
        self.stamp = stamp
    }

    /// The document's bytes.
    public func encoded() -> [UInt8] {
        let calendar = icalcomponent_new_vcalendar()!
        defer { icalcomponent_free(calendar) }
        icalcomponent_add_property(calendar, icalproperty_new_version("2.0"))
        icalcomponent_add_property(calendar, icalproperty_new_prodid(productID))
        icalcomponent_add_property(calendar, icalproperty_new_calscale("GREGORIAN"))
        for event in events { icalcomponent_add_component(calendar, component(event)) }
        for todo in todos { icalcomponent_add_component(calendar, component(todo)) }
        guard let text = icalcomponent_as_ical_string_r(calendar) else { return [] }
        defer { free(text) }
        return Array(UnsafeRawBufferPointer(start: text, count: strlen(text)))
    }

    private func component(_ event: CalendarEvent) -> OpaquePointer {
        let component = icalcomponent_new_vevent()!
        add(to: component, icalproperty_new_uid(event.uid))
        add(to: component, icalproperty_new_dtstamp(Self.time(stamp)))
        add(to: component, icalproperty_new_dtstart(Self.date(event.start)))
        var end = Self.date(event.end)
        icaltime_adjust(&end, 1, 0, 0, 0)  // exclusive: the day after the last
        add(to: component, icalproperty_new_dtend(end))
        add(to: component, icalproperty_new_summary(event.summary))
        if let location = event.location { add(to: component, icalproperty_new_location(location)) }
        if let position = event.position {
            add(to: component, icalproperty_new_geo(icalgeotype(lat: position.latitude, lon: position.longitude)))
        }
        if let url = event.url { add(to: component, icalproperty_new_url(url)) }
        if let description = event.description { add(to: component, icalproperty_new_description(description)) }
        return component
    }

    private func component(_ todo: CalendarTodo) -> OpaquePointer {
        let component = icalcomponent_new_vtodo()!
        add(to: component, icalproperty_new_uid(todo.uid))
        add(to: component, icalproperty_new_dtstamp(Self.time(stamp)))
        add(to: component, icalproperty_new_summary(todo.summary))
        if let related = todo.relatedTo { add(to: component, icalproperty_new_relatedto(related)) }
        if let completed = todo.completed {
            add(to: component, icalproperty_new_status(ICAL_STATUS_COMPLETED))
            add(to: component, icalproperty_new_completed(Self.time(completed)))
        } else {
            add(to: component, icalproperty_new_status(ICAL_STATUS_NEEDSACTION))
        }
        return component
    }

    private func add(to component: OpaquePointer, _ property: OpaquePointer?) {
        icalcomponent_add_property(component, property)
    }

    private static func date(_ day: CalendarDay) -> icaltimetype {
        var time = icaltime_null_date()
        (time.year, time.month, time.day) = (Int32(day.year), Int32(day.month), Int32(day.day))
        return time
    }

    /// In UTC, to the second.
    private static func time(_ date: Date) -> icaltimetype {
        icaltime_from_timet_with_zone(time_t(date.timeIntervalSince1970.rounded(.down)), 0, icaltimezone_get_utc_timezone())
    }
}
