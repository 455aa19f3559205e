import Foundation
import Persistence

/// A trip as entered in the new-trip or edit form, before validation.
public struct TripDraft: Hashable, Sendable {
    public var name: String
    public var subtitle: String?
    /// nil when the form sent no known collection (`TripCollection(rawValue:)` failed).
    public var collection: TripCollection?
    /// nil or a blank name for none.
    public var destination: TripDestination?
    /// The dates as typed (`YYYY-MM-DD`, the value of `<input type="date">`); nil or empty for none.
    public var startDate: String?
    public var endDate: String?

    public init(name: String, subtitle: String? = nil, collection: TripCollection?,
                destination: TripDestination? = nil, startDate: String? = nil, endDate: String? = nil) {
        self.name = name
        self.subtitle = subtitle
        self.collection = collection
        self.destination = destination
        self.startDate = startDate
        self.endDate = endDate
    }

    /// The draft with trimmed text; or the first problem in field order, carrying every other
    /// one (`ValidationError.others`), so a form is fixed in one go.
    func validated() throws(ValidationError) -> TripFields {
        var problems = ValidationProblems()
        let name = problems.check { () throws(ValidationError) in
            try TextRules.required(self.name, field: "name", noun: "title", emptyMessage: "Enter a trip title.")
        }
        let subtitle = problems.check { () throws(ValidationError) in
            try TextRules.optional(self.subtitle, field: "subtitle", noun: "subtitle")
        } ?? nil
        if collection == nil { problems.add(ValidationError(field: "collection", message: "Choose one of the four collections.")) }
        let destination = problems.check { () throws(ValidationError) in try validatedDestination() } ?? nil
        let startDate = problems.check { () throws(ValidationError) in
            try Self.date(self.startDate, field: "startDate", noun: "start date")
        } ?? nil
        let endDate = problems.check { () throws(ValidationError) in try Self.date(self.endDate, field: "endDate", noun: "end date") } ?? nil
        if let startDate, let endDate, endDate < startDate {
            problems.add(ValidationError(field: "endDate",
                                         message: "The end date is before the start date: choose an end on or after \(startDate.dayText)."))
        }
        try problems.throwIfAny()
        guard let name, let collection else { preconditionFailure("a missing field is a problem") }
        return TripFields(name: name, subtitle: subtitle, collection: collection, destination: destination,
                          startDate: startDate, endDate: endDate)
    }

    private func validatedDestination() throws(ValidationError) -> TripDestination? {
        guard var destination,
              let name = try TextRules.optional(destination.name, field: "destination", noun: "destination") else { return nil }
        if let coordinate = destination.coordinate, !coordinate.isValid {
            throw ValidationError(field: "destination", message: "That place has no valid position: search for it again.")
        }
        destination.name = name
        return destination
    }

    private static func date(_ text: String?, field: String, noun: String) throws(ValidationError) -> CalendarDate? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        guard let date = CalendarDate(text) else {
            throw ValidationError(field: field, message: "Enter the \(noun) as a date, such as 2027-04-12.")
        }
        return date
    }
}

/// A trip's own fields, validated: what the writes store.
struct TripFields: Hashable, Sendable {
    var name: String
    var subtitle: String?
    var collection: TripCollection
    var destination: TripDestination? = nil
    var startDate: CalendarDate? = nil
    var endDate: CalendarDate? = nil

    /// What trip search reads (the `name_folded` column, with its trigram index): the folded name,
    /// then, each after U+001F, the folded destination, subtitle and collection ("kayak" and
    /// "winter" find trips too). Names hold no control character (`TextRules`), so a word matches
    /// across two of them only if it holds that one; trips still sort by name first (it sorts
    /// before every printable character, as the end of a shorter name does).
    var searchText: String {
        Self.searchText(name: name, destination: destination?.name, subtitle: subtitle, collection: collection)
    }

    static func searchText(name: String, destination: String?, subtitle: String?, collection: TripCollection?) -> String {
        [name, destination, subtitle, collection?.title].compactMap { $0?.folded }.filter { !$0.isEmpty }.joined(separator: "\u{1F}")
    }

    /// The Trip columns these fields fill, in the order of `values`.
    static let columns = "name, name_folded, subtitle, collection, destination, latitude, longitude, place, start_date, end_date"

    var values: [any DatabaseValueConvertible] {
        [name, searchText, subtitle, collection, destination?.name, destination?.coordinate?.latitude,
         destination?.coordinate?.longitude, destination?.place.map(CodableAttribute.init), startDate, endDate]
    }
}
