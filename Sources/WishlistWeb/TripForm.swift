import HTTPServer
import Mustache
import Places
import WishlistCore

/// The trip form's values and messages, shared by New Trip and the trip page's edit mode.
/// The server re-renders it with the user's own input and a message next to each bad field.
struct TripForm {
    var name = ""
    var subtitle = ""
    var collection = ""
    /// The Destination field as typed, or the label of the place picked.
    var destination = ""
    /// The picked place's `PlaceToken` (the hidden `place` field); empty for free text.
    var place = ""
    var startDate = ""
    var endDate = ""
    /// The places "Find place" found for `destination` (the form without script); nil before a search.
    var placeChoices: [Place]?
    var errors: [String: String] = [:]
    /// A message for the whole form (the wishlist was busy), shown above it.
    var alert: String?
    /// The trip's `editVersion` the form was drawn with (the hidden `was` field); a save with it
    /// overwrites no change made elsewhere meanwhile. Empty for a new trip.
    var version = ""

    /// A new trip's form, in `collection`.
    init(newIn collection: TripCollection) {
        self.collection = collection.rawValue
    }

    /// The collection a new trip goes in: the one asked for (`?collection=`, as from that
    /// collection's page), else the one last added to, as someone planning a season adds to it
    /// in a row; the first when there are no trips. Decided by the URL and the database only, so
    /// the page that shows it can be kept until the next commit.
    static func newTripCollection(asked: String?, in snapshot: WishlistSnapshot) throws -> TripCollection {
        try asked.flatMap(TripCollection.init(rawValue:))
            ?? snapshot.fetch(.recentTrips(limit: 1)).first?.collection ?? TripCollection.allCases[0]
    }

    init(trip: Trip) {
        name = trip.name
        subtitle = trip.subtitle ?? ""
        collection = trip.collection.rawValue
        destination = trip.destination?.name ?? ""
        place = trip.destination?.place.map(PlaceToken.token(for:)) ?? ""
        startDate = trip.startDate?.description ?? ""
        endDate = trip.endDate?.description ?? ""
        version = trip.editVersion
    }

    init(form: FormFields) {
        name = form["name"] ?? ""
        subtitle = form["subtitle"] ?? ""
        collection = form["collection"] ?? ""
        destination = form["destination"] ?? ""
        place = form["place"] ?? ""
        startDate = form["startDate"] ?? ""
        endDate = form["endDate"] ?? ""
        version = form["was"] ?? ""
        // A choice among the places found (the form without script) is a pick like the script's.
        if let choice = form[Self.placeChoiceField], let chosen = PlaceToken.place(for: choice) {
            (destination, place) = (chosen.label, choice)
        }
    }

    /// The radio buttons of the places "Find place" found.
    static let placeChoiceField = "placeChoice"
    /// The submit button that searches places instead of saving (`findPlace=1`).
    static let findPlaceField = "findPlace"

    /// The draft for the store, which validates it (its messages land in `errors`).
    var draft: TripDraft {
        TripDraft(name: name, subtitle: subtitle, collection: TripCollection(rawValue: collection),
                  destination: PlaceToken.destination(named: destination, token: place), startDate: startDate, endDate: endDate)
    }

    /// "Find place" was pressed: the form is shown again with the places matching the
    /// destination as choices, nothing saved. True when it was.
    mutating func findPlaces(_ form: FormFields) -> Bool {
        guard form[Self.findPlaceField] != nil else { return false }
        placeChoices = PlaceSearch.search(destination, limit: PlaceRoutes.maxResults)
        return true
    }

    mutating func record(_ unsaved: UnsavedChange) {
        if let field = unsaved.field { errors[field] = unsaved.message } else { alert = unsaved.message }
        for other in unsaved.others { errors[other.field] = other.message }
    }

    /// Runs `body`, which saves the form's draft. A change that could not be saved lands in the
    /// form (beside its field, or above the form when the wishlist was busy, its disk full or its
    /// database gone) so the page shows it with what was typed; it is returned, nil once saved.
    mutating func save(_ body: (TripDraft) throws -> Void) throws -> UnsavedChange? {
        do {
            try body(draft)
            return nil
        } catch {
            guard let unsaved = UnsavedChange(error) else { throw error }
            record(unsaved)
            return unsaved
        }
    }

    func context(formID: String, action: String, heading: String, submitLabel: String,
                 cancelURL: String?, photo: PhotoFieldView) -> [String: MustacheValue] {
        var context: [String: MustacheValue] = [
            "formID": .string(formID),
            "action": .string(action),
            "heading": .string(heading),
            "submitLabel": .string(submitLabel),
            "name": field("name", value: name, formID: formID),
            "subtitle": field("subtitle", value: subtitle, formID: formID),
            "collection": field("collection", value: collection, formID: formID),
            "photo": field("photo", value: "", formID: formID),
            "collectionOptions": TripViews.collectionOptions(selected: collection),
            "destination": field("destination", value: destination, formID: formID),
            "place": .string(place),
            "version": .string(version),
            "startDate": field("startDate", value: startDate, formID: formID),
            "endDate": field("endDate", value: endDate, formID: formID),
        ]
        if let placeChoices { context["placeSearch"] = placeSearchContext(placeChoices, formID: formID) }
        if let cancelURL { context["cancelURL"] = .string(cancelURL) }
        if let alert { context["formError"] = .string(alert) } else if !errors.isEmpty { context["formError"] = "Please fix the highlighted fields." }
        context.merge(photo.context) { $1 }
        return context
    }

    /// The choices after "Find place": each place, then keeping the text as typed.
    private func placeSearchContext(_ places: [Place], formID: String) -> MustacheValue {
        let typed = destination.trimmingCharacters(in: .whitespaces)
        return .object([
            "typed": .string(typed),
            "hasChoices": .bool(!places.isEmpty),
            "choices": .array(places.enumerated().map { index, place in
                let token = PlaceToken.token(for: place.identifier)
                return ["id": .string("\(formID)-place-\(index)"), "token": .string(token), "label": .string(place.label),
                        "checked": .bool(token == self.place)]
            }),
        ])
    }

    private func field(_ name: String, value: String, formID: String) -> MustacheValue {
        var field: [String: MustacheValue] = ["id": .string("\(formID)-\(name)"), "value": .string(value)]
        if let error = errors[name] { field["error"] = .string(error) }
        return .object(field)
    }
}

/// What the photo picker shows: the current photo (or the placeholder) and the upload limit.
struct PhotoFieldView {
    var url: String?
    var width = TripViews.placeholderSize.width
    var height = TripViews.placeholderSize.height
    var alt = "No photo yet"
    var label = "Choose Photo"
    var maxBytes: Int
    /// The page already shows the current photo (the trip page's hero, above the edit form): the
    /// preview appears only for a file chosen to replace it.
    var isShownAbove = false

    init(maxBytes: Int) {
        self.maxBytes = maxBytes
    }

    /// The edit form shows the trip's thumbnail; choosing a file replaces the photo.
    init(current trip: Trip, maxBytes: Int) {
        self.maxBytes = maxBytes
        isShownAbove = true
        guard let photo = trip.photo else { return }
        url = PhotoRoutes.thumbnailURL(.trip(trip.id), version: photo.version)
        (width, height) = (photo.thumbnailWidth, photo.thumbnailHeight)
        alt = "Photo of \(trip.name)"
        label = "Change Photo"
    }

    var context: [String: MustacheValue] {
        [
            "photoURL": url.map(MustacheValue.string) ?? .null, "photoWidth": .int(width), "photoHeight": .int(height),
            "photoAlt": .string(alt), "photoLabel": .string(label), "photoShownAbove": .bool(isShownAbove),
            "maxPhotoBytes": .int(maxBytes), "maxPhotoMegabytes": .int(maxBytes / (1024 * 1024)),
        ]
    }
}
