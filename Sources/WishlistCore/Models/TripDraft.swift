/// A trip as entered in the new-trip or edit form, before validation.
public struct TripDraft: Hashable, Sendable {
    public var name: String
    public var subtitle: String?
    /// nil when the form sent no known collection (`TripCollection(rawValue:)` failed).
    public var collection: TripCollection?

    public init(name: String, subtitle: String? = nil, collection: TripCollection?) {
        self.name = name
        self.subtitle = subtitle
        self.collection = collection
    }

    /// The draft with trimmed text, or the first problem in field order.
    func validated() throws(ValidationError) -> (name: String, subtitle: String?, collection: TripCollection) {
        let name = try TextRules.required(name, field: "name", noun: "title", emptyMessage: "Enter a trip title.")
        let subtitle = try TextRules.optional(subtitle, field: "subtitle", noun: "subtitle")
        guard let collection else {
            throw ValidationError(field: "collection", message: "Choose one of the four collections.")
        }
        return (name, subtitle, collection)
    }
}
