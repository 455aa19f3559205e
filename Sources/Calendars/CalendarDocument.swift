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

/// How often and when a component last changed: `SEQUENCE` and `LAST-MODIFIED` (and its
/// `DTSTAMP`), so a subscribed calendar updates its copy instead of adding another.
public struct CalendarRevision: Hashable, Sendable {
    public let sequence: Int64
    public let lastModified: Date

    public init(sequence: Int64, lastModified: Date) {
        self.sequence = sequence
        self.lastModified = lastModified
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
    public var revision: CalendarRevision?

    public init(uid: String, start: CalendarDay, end: CalendarDay, summary: String, location: String? = nil,
                position: (latitude: Double, longitude: Double)? = nil, url: String? = nil, description: String? = nil,
                revision: CalendarRevision? = nil) {
        self.uid = uid
        self.start = start
        self.end = end
        self.summary = summary
        self.location = location
        self.position = position
        self.url = url
        self.description = description
        self.revision = revision
    }
}

/// A task (an RFC 5545 VTODO component), related to another component by its UID.
public struct CalendarTodo: Sendable {
    public var uid: String
    public var relatedTo: String?
    public var summary: String
    /// When it was done; nil while it is not.
    public var completed: Date?
    public var revision: CalendarRevision?

    public init(uid: String, relatedTo: String? = nil, summary: String, completed: Date? = nil, revision: CalendarRevision? = nil) {
        self.uid = uid
        self.relatedTo = relatedTo
        self.summary = summary
        self.completed = completed
        self.revision = revision
    }
}

/// An iCalendar document (`text/calendar`), built by libical, which escapes the text, folds the
/// lines at 75 octets and ends them with CRLF as RFC 5545 says. A document too large to hold is
/// sent as its `opening`, the `encodedComponents` of one part after another, and `closing`.
public struct CalendarDocument: Sendable {
    public var productID: String
    public var events: [CalendarEvent] = []
    public var todos: [CalendarTodo] = []
    /// `DTSTAMP` of the components without a revision: when the document was made.
    public var stamp: Date
    /// What a calendar app calls the calendar it subscribes to (`NAME`, RFC 7986, and the
    /// `X-WR-CALNAME` the apps read).
    public var name: String?
    /// How often a subscribed calendar should fetch it again (`REFRESH-INTERVAL`, RFC 7986, and
    /// the `X-PUBLISHED-TTL` older apps read); whole seconds.
    public var refreshInterval: Duration?

    public static let mediaType = "text/calendar; charset=utf-8"
    public static let closing = Array("END:VCALENDAR\r\n".utf8)

    public init(productID: String, stamp: Date) {
        self.productID = productID
        self.stamp = stamp
    }

    /// The document's bytes.
    public func encoded() -> [UInt8] {
        opening + encodedComponents() + Self.closing
    }

    /// The `VCALENDAR` with its properties, up to its first component.
    public var opening: [UInt8] {
        let calendar = icalcomponent_new_vcalendar()!
        add(to: calendar, icalproperty_new_version("2.0"))
        add(to: calendar, icalproperty_new_prodid(productID))
        add(to: calendar, icalproperty_new_calscale("GREGORIAN"))
        if let name {
            add(to: calendar, icalproperty_new_name(name))
            add(to: calendar, Self.extensionProperty("X-WR-CALNAME", name))
        }
        if let refreshInterval {
            let duration = icaldurationtype_from_int(Int32(clamping: refreshInterval.components.seconds))
            let refresh = icalproperty_new_refreshinterval(duration)
            icalproperty_add_parameter(refresh, icalparameter_new_value(ICAL_VALUE_DURATION))  // RFC 7986 requires it
            add(to: calendar, refresh)
            add(to: calendar, Self.extensionProperty("X-PUBLISHED-TTL", String(cString: icaldurationtype_as_ical_string(duration))))
        }
        let whole = Self.text(of: calendar), closing = Self.closing
        precondition(whole.count >= closing.count && whole.suffix(closing.count).elementsEqual(closing),
                     "libical ends a calendar with END:VCALENDAR")
        return Array(whole.dropLast(closing.count))
    }

    /// The events, then the to-dos, without the `VCALENDAR` around them.
    public func encodedComponents() -> [UInt8] {
        events.flatMap { Self.text(of: component($0)) } + todos.flatMap { Self.text(of: component($0)) }
    }

    /// The component as text; frees it.
    private static func text(of component: OpaquePointer) -> [UInt8] {
        defer { icalcomponent_free(component) }
        guard let text = icalcomponent_as_ical_string_r(component) else { return [] }
        defer { free(text) }
        return Array(UnsafeRawBufferPointer(start: text, count: strlen(text)))
    }

    private func component(_ event: CalendarEvent) -> OpaquePointer {
        let component = icalcomponent_new_vevent()!
        add(to: component, icalproperty_new_uid(event.uid))
        addRevision(event.revision, to: component)
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
        addRevision(todo.revision, to: component)
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

    /// `DTSTAMP` as the last change, so the same revision always reads the same (the document's
    /// stamp without one), with `SEQUENCE` and `LAST-MODIFIED`.
    private func addRevision(_ revision: CalendarRevision?, to component: OpaquePointer) {
        add(to: component, icalproperty_new_dtstamp(Self.time(revision?.lastModified ?? stamp)))
        guard let revision else { return }
        add(to: component, icalproperty_new_sequence(Int32(clamping: revision.sequence)))
        add(to: component, icalproperty_new_lastmodified(Self.time(revision.lastModified)))
    }

    private func add(to component: OpaquePointer, _ property: OpaquePointer?) {
        icalcomponent_add_property(component, property)
    }

    /// An `X-` property. libical escapes its backslashes and line breaks, and leaves `,` and `;`
    /// as they are (an `X-` value may be structured): readers take the whole value as one text.
    private static func extensionProperty(_ name: String, _ value: String) -> OpaquePointer? {
        let property = icalproperty_new_x(value)
        icalproperty_set_x_name(property, name)
        return property
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
