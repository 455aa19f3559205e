import HTTPServer
import Mustache
import WishlistCore

/// The trip page (`/trips/:id`): photo, progress, and the activity checklist; `?edit=1` is edit
/// mode (a URL state, so leaving the page leaves edit mode). Every change is a plain form post
/// answered with 303 back to the page; the script turns the common ones into in-place updates.
struct TripPage {
    let app: WishlistApp

    func register(on router: inout Router) {
        router.get("/trips/:id") { request in try app.pages.cached(request) { try render(request) } }
        router.post("/trips/:id") { request in try update(request) }
        router.get("/trips/:id/delete") { request in try confirmDelete(request) }
        router.post("/trips/:id/delete") { request in try delete(request) }
        router.post("/trips/:id/activities") { request in try addActivity(request) }
        router.post("/activities/:id") { request in try renameActivity(request) }
        router.post("/activities/:id/complete") { request in try completeActivity(request) }
        router.get("/activities/:id/delete") { request in try confirmDeleteActivity(request) }
        router.post("/activities/:id/delete") { request in try deleteActivity(request) }
        router.post("/preferences/activity-sort") { request in try setSortOrder(request) }
    }

    // MARK: Showing

    /// A rename that could not be saved: shown again in its field, with the reason beside it.
    struct RenameProblem {
        let activityID: Int64
        let typed: String
        let message: String
    }

    func render(_ request: Request, form: TripForm? = nil, newActivity: (value: String, error: String?)? = nil,
                rename: RenameProblem? = nil, status: HTTPStatus = .ok) throws -> SharedResponse {
        try render(request, tripID: try RecordID(request.parameters["id"], entity: "trip").value,
                 form: form, newActivity: newActivity, rename: rename, status: status)
    }

    func render(_ request: Request, tripID id: Int64, form: TripForm? = nil, newActivity: (value: String, error: String?)? = nil,
                rename: RenameProblem? = nil, status: HTTPStatus = .ok) throws -> SharedResponse {
        let editing = request.query["edit"] == "1" || form != nil || newActivity != nil || rename != nil
        let live = app.live.subscription(LiveTopicName.trip(id, editing: editing))
        guard let trip = try app.store.trip(id: id) else {
            throw HTTPError(.notFound, "There is no trip number \(id). It may have been deleted.")
        }
        var context: [String: MustacheValue] = [
            "trip": .object(Self.headerContext(trip)),
            "list": .object(try listContext(trip, editing: editing, rename: rename)),
            "editing": .bool(editing),
        ]
        if editing {
            let form = form ?? TripForm(trip: trip)
            context["form"] = .object(form.context(
                formID: "edit-trip", action: "/trips/\(trip.id)", heading: "Edit Trip", submitLabel: "Save Changes",
                cancelURL: nil, photo: PhotoFieldView(current: trip, maxBytes: app.configuration.maxPhotoBytes)))
            var field: [String: MustacheValue] = ["value": .string(newActivity?.value ?? "")]
            if let error = newActivity?.error { field["error"] = .string(error) }
            context["newActivity"] = .object(field)
        }
        return try app.pages.render("trip", for: request, tab: .wishlist, live: live, status: status, context)
    }

    static func headerContext(_ trip: Trip) -> [String: MustacheValue] {
        var context: [String: MustacheValue] = [
            "id": .int(Int(trip.id)),
            "name": .string(trip.name),
            "collectionTitle": .string(trip.collection.title),
            "percentComplete": .int(TripViews.percent(trip.completionFraction)),
        ]
        if let photo = trip.photo {
            context["photoURL"] = .string(PhotoRoutes.renditionURL(tripID: trip.id, size: .large, version: photo.version))
            context["photoSourceSet"] = .string(PhotoRoutes.renditionSourceSet(tripID: trip.id, photo: photo))
            context["originalURL"] = .string(PhotoRoutes.originalURL(tripID: trip.id, version: photo.version))
            context["photoWidth"] = .int(photo.width)
            context["photoHeight"] = .int(photo.height)
            context["photoAlt"] = .string("Photo of \(trip.name)")
        } else {
            context["photoURL"] = .string(TripViews.placeholderURL)
            context["photoWidth"] = .int(TripViews.placeholderSize.width)
            context["photoHeight"] = .int(TripViews.placeholderSize.height)
            context["photoAlt"] = .string("No photo of \(trip.name) yet")
        }
        if let subtitle = trip.subtitle, !subtitle.isEmpty { context["subtitle"] = .string(subtitle) }
        return context
    }

    func listContext(_ trip: Trip, editing: Bool, rename: RenameProblem?) throws -> [String: MustacheValue] {
        let order = try app.store.activitySortOrder()
        return Self.listContext(trip, activities: try app.store.activities(tripID: trip.id, sortedBy: order),
                                order: order, editing: editing, rename: rename)
    }

    static func listContext(_ trip: Trip, activities: [Activity], order: ActivitySortOrder, editing: Bool,
                            rename: RenameProblem? = nil) -> [String: MustacheValue] {
        [
            "tripID": .int(Int(trip.id)),
            "editing": .bool(editing),
            "remainingText": .string(remainingText(trip)),
            "hasActivities": .bool(!activities.isEmpty),
            "sortOptions": .array(ActivitySortOrder.allCases.map { option in
                ["value": .string(option.rawValue), "label": .string(option.label), "selected": .bool(option == order)]
            }),
            "activities": .array(activities.map { activity in
                var row: [String: MustacheValue] = [
                    "id": .int(Int(activity.id)),
                    "name": .string(activity.name),
                    "editValue": .string(activity.name),
                    "isComplete": .bool(activity.isComplete),
                    "toggleValue": .string(activity.isComplete ? "false" : "true"),
                ]
                if let rename, rename.activityID == activity.id {
                    row["editValue"] = .string(rename.typed)
                    row["renameError"] = .string(rename.message)
                }
                return .object(row)
            }),
        ]
    }

    static func remainingText(_ trip: Trip) -> String {
        switch (trip.activityCount, trip.remainingActivityCount) {
        case (0, _): "No activities yet"
        case (_, 0): "All done"
        case (_, 1): "1 remaining activity"
        case (_, let remaining): "\(remaining) remaining activities"
        }
    }

    // MARK: Changing the trip

    func update(_ request: Request) throws -> Response {
        let trip = try trip(request)
        var form = TripForm(form: request.form)
        do {
            try app.store.updateTrip(id: trip.id, draft: form.draft, photoAt: PhotoRoutes.uploadedPhotoPath(request))
        } catch let error as ValidationError {
            form.record(error)
            return try render(request, form: form, status: .unprocessableContent).response(for: request)
        }
        return .redirect(to: "/trips/\(trip.id)?edit=1")
    }

    func confirmDelete(_ request: Request) throws -> Response {
        let trip = try trip(request)
        return try confirmation(for: request, heading: "Delete Trip",
                                message: "Delete “\(trip.name)” and all its activities? This can’t be undone.",
                                action: "/trips/\(trip.id)/delete", cancelURL: "/trips/\(trip.id)?edit=1")
    }

    func delete(_ request: Request) throws -> Response {
        let trip = try trip(request)
        try app.store.deleteTrip(id: trip.id)
        return .redirect(to: "/")
    }

    // MARK: Changing activities

    func addActivity(_ request: Request) throws -> Response {
        let trip = try trip(request)
        let name = request.form["name"] ?? ""
        do {
            _ = try app.store.addActivity(tripID: trip.id, name: name)
        } catch let error as ValidationError {
            return try render(request, newActivity: (name, error.message), status: .unprocessableContent).response(for: request)
        }
        return .redirect(to: "/trips/\(trip.id)?edit=1")
    }

    func renameActivity(_ request: Request) throws -> Response {
        let activity = try activity(request)
        let typed = request.form["name"] ?? ""
        do {
            try app.store.renameActivity(id: activity.id, name: typed)
        } catch let error as ValidationError {
            return try render(request, tripID: activity.tripID,
                              rename: RenameProblem(activityID: activity.id, typed: typed, message: error.message),
                              status: .unprocessableContent).response(for: request)
        }
        return .redirect(to: "/trips/\(activity.tripID)?edit=1")
    }

    func completeActivity(_ request: Request) throws -> Response {
        let activity = try activity(request)
        guard let isComplete = request.form["complete"].flatMap(Bool.init) else {
            throw HTTPError(.badRequest, "Say whether the activity is complete with complete=true or complete=false.")
        }
        try app.store.setActivityComplete(id: activity.id, isComplete)
        return .redirect(to: "/trips/\(activity.tripID)\(request.form["editing"] == "1" ? "?edit=1" : "")")
    }

    func confirmDeleteActivity(_ request: Request) throws -> Response {
        let activity = try activity(request)
        return try confirmation(for: request, heading: "Delete Activity",
                                message: "Are you sure you want to delete this activity? “\(activity.name)” will be gone.",
                                action: "/activities/\(activity.id)/delete", cancelURL: "/trips/\(activity.tripID)?edit=1")
    }

    func deleteActivity(_ request: Request) throws -> Response {
        let activity = try activity(request)
        try app.store.deleteActivity(id: activity.id)
        return .redirect(to: "/trips/\(activity.tripID)?edit=1")
    }

    func setSortOrder(_ request: Request) throws -> Response {
        guard let order = request.form["sort"].flatMap(ActivitySortOrder.init(rawValue:)) else {
            throw HTTPError(.badRequest, "Sort by one of: \(ActivitySortOrder.allCases.map(\.label).joined(separator: ", ")).")
        }
        try app.store.setActivitySortOrder(order)
        return .redirect(to: localRedirectPath(request.form["return"]) ?? "/")
    }

    // MARK: Helpers

    private func trip(_ request: Request) throws -> Trip {
        let id = try RecordID(request.parameters["id"], entity: "trip")
        guard let trip = try app.store.trip(id: id.value) else {
            throw HTTPError(.notFound, "There is no trip number \(id.value). It may have been deleted.")
        }
        return trip
    }

    private func activity(_ request: Request) throws -> Activity {
        let id = try RecordID(request.parameters["id"], entity: "activity")
        guard let activity = try app.store.activity(id: id.value) else {
            throw HTTPError(.notFound, "There is no activity number \(id.value). It may have been deleted.")
        }
        return activity
    }

    private func confirmation(for request: Request, heading: String, message: String, action: String, cancelURL: String) throws -> Response {
        try app.pages.page("confirm", for: request, tab: .wishlist, [
            "heading": .string(heading), "message": .string(message), "action": .string(action),
            "cancelURL": .string(cancelURL), "confirmLabel": "Delete",
        ])
    }
}

/// A numeric id from a path; anything else is a friendly 404, not a 500.
struct RecordID {
    let value: Int64

    init(_ text: String?, entity: String) throws {
        guard let text, let value = Int64(text), value > 0 else {
            throw HTTPError(.notFound, "There is no \(entity) “\(text ?? "")”.")
        }
        self.value = value
    }
}

/// A redirect target from a form: only a path on this site, never another origin.
func localRedirectPath(_ text: String?) -> String? {
    guard let text, text.hasPrefix("/"), !text.hasPrefix("//"), !text.contains("\\") else { return nil }
    return text
}
