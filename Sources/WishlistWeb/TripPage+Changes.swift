import HTTPServer
import WishlistCore

/// The trip page's changes: each a form post answered with 303 back to the page, or the page
/// again with the problem shown beside what was typed.
extension TripPage {
    func registerChanges(on router: inout Router) {
        router.post("/trips/:id") { request in try update(request) }
        router.page("/trips/:id/delete") { request in try confirmDelete(request) }
        router.post("/trips/:id/delete") { request in try delete(request) }
        router.post("/trips/:id/activities") { request in try addActivity(request) }
        router.post("/activities/:id") { request in try renameActivity(request) }
        router.post("/activities/:id/complete") { request in try completeActivity(request) }
        router.page("/activities/:id/delete") { request in try confirmDeleteActivity(request) }
        router.post("/activities/:id/delete") { request in try deleteActivity(request) }
        router.post("/preferences/activity-sort") { request in try setSortOrder(request) }
    }

    // MARK: Changing the trip

    /// Saves the trip's fields and the activity names typed beside them, all or nothing: the
    /// rename fields belong to this form, so Done, which submits it, drops nothing. Each part is
    /// checked against what the form was drawn with (`was`, `activity-was-<id>`); a form without
    /// them is shown again to be checked, never trusted. Answered with the page named by `return`
    /// (Done: the trip out of edit mode), else edit mode again.
    func update(_ request: Request) throws -> Response {
        let trip = try trip(request)
        var form = TripForm(form: request.form)
        // "Find place" saves nothing of the trip yet, but the activity names typed beside it are
        // saved as a rename is anywhere else: the form it shows again has no field for them.
        let findingPlaces = form.findPlaces(request.form)
        let typed = Self.typedNames(request.form)
        var shown = RenameProblem(typed: typed.mapValues(\.name))
        guard !form.version.isEmpty, let renames = Self.renames(typed) else {
            form.alert = Self.unversionedMessage
            form.version = trip.editVersion
            return try render(request, form: form, rename: shown, status: .preconditionRequired).response(for: request)
        }
        if let refused = renames.lazy.compactMap(Self.refusal).first {
            shown.refused = refused
            return try render(request, form: form, rename: shown, status: .unprocessableContent).response(for: request)
        }
        let expected = findingPlaces ? nil : form.version
        let refusal = try form.save { draft in
            try app.store.updateTrip(id: trip.id, draft: findingPlaces ? nil : draft,
                                     photoAt: findingPlaces ? nil : PhotoRoutes.uploadedPhotoPath(request),
                                     expected: expected, renaming: renames)
        }
        guard let refusal else {
            if findingPlaces { return try render(request, form: form).response(for: request) }
            return .redirect(to: localRedirectPath(request.form["return"]) ?? "/trips/\(trip.id)?edit=1")
        }
        // Saved again from the form shown now (its versions drawn from now), what was typed is meant to replace the other change.
        let now = refusal.status == .preconditionFailed ? try app.store.fetch(.checklist(tripID: trip.id)) : nil
        if let now { form.version = now.trip.editVersion }
        var page = refusal.answer(try render(request, form: form, rename: shown, status: refusal.status).response(for: request))
        if let now { for (name, value) in CurrentVersions.headers(CurrentVersions.tripForm(now)) { page.headers[name] = value } }
        return page
    }

    static let unversionedMessage = """
        This form came without the version it was opened with, so saving it could overwrite changes made elsewhere. \
        Nothing was saved: check what is shown and save again.
        """

    /// The activity names typed in the form (`activity-name-<id>`), with the name each field
    /// showed (`activity-was-<id>`, nil when the form sent none).
    private static func typedNames(_ fields: FormFields) -> [Int64: (name: String, was: String?)] {
        var typed: [Int64: (name: String, was: String?)] = [:]
        for (field, value) in fields where field.hasPrefix(renameFieldPrefix) {
            guard let id = Int64(field.dropFirst(renameFieldPrefix.count)) else { continue }
            typed[id] = (value, fields[renameVersionPrefix + String(id)])
        }
        return typed
    }

    /// The names changed from what the form showed; nil when a field came without what it showed.
    private static func renames(_ typed: [Int64: (name: String, was: String?)]) -> [ActivityRename]? {
        var renames: [ActivityRename] = []
        for (id, field) in typed.sorted(by: { $0.key < $1.key }) {
            guard let was = field.was else { return nil }
            if field.name != was { renames.append(ActivityRename(id: id, name: field.name, expected: was)) }
        }
        return renames
    }

    /// The first rename whose name the rules refuse, with why.
    private static func refusal(_ rename: ActivityRename) -> (activityID: Int64, message: String)? {
        do {
            _ = try WishlistStore.validatedActivityName(rename.name)
            return nil
        } catch {
            return (rename.id, error.message)
        }
    }

    /// The name of an activity's rename field in the trip form (the template writes the same),
    /// and of the field holding the name it was drawn with.
    static let renameFieldPrefix = "activity-name-"
    static let renameVersionPrefix = "activity-was-"

    func confirmDelete(_ request: Request) throws -> Response {
        let trip = try trip(request)
        return try confirmation(for: request, heading: "Delete Trip",
                                message: "Delete “\(trip.name)” and all its activities?",
                                action: "/trips/\(trip.id)/delete", cancelURL: "/trips/\(trip.id)?edit=1")
    }

    func delete(_ request: Request) throws -> Response {
        let trip = try trip(request)
        return .redirect(to: UndoRoutes.path("/", offeringUndoOf: try app.store.deleteTrip(id: trip.id)))
    }

    // MARK: Changing activities

    func addActivity(_ request: Request) throws -> Response {
        let trip = try trip(request)
        let name = request.form["name"] ?? ""
        do {
            _ = try app.store.addActivity(tripID: trip.id, name: name)
        } catch {
            guard let unsaved = UnsavedChange(error) else { throw error }
            return unsaved.answer(try render(request, newActivity: (name, unsaved.message), status: unsaved.status).response(for: request))
        }
        return .redirect(to: "/trips/\(trip.id)?edit=1")
    }

    func renameActivity(_ request: Request) throws -> Response {
        let activity = try activity(request)
        let typed = request.form["name"] ?? ""
        do {
            // The name it showed (`was`): a rename made elsewhere meanwhile is not overwritten. Without
            // it, a name the rules refuse still says why; any other is refused, never trusted.
            guard let was = request.form["was"] else {
                _ = try WishlistStore.validatedActivityName(typed)
                throw HTTPError(.preconditionRequired, Self.unversionedMessage)
            }
            try app.store.renameActivity(id: activity.id, name: typed, expected: was)
        } catch {
            guard let unsaved = UnsavedChange(error) else { throw error }
            return unsaved.answer(try render(request, tripID: activity.tripID,
                                             rename: RenameProblem(typed: [activity.id: typed], refused: (activity.id, unsaved.message)),
                                             status: unsaved.status).response(for: request))
        }
        return .redirect(to: "/trips/\(activity.tripID)?edit=1")
    }

    func completeActivity(_ request: Request) throws -> Response {
        let id = try RecordID(request.parameters["id"], entity: "activity")
        guard let isComplete = request.form["complete"].flatMap(Bool.init) else {
            throw HTTPError(.badRequest, "Say whether the activity is complete with complete=true or complete=false.")
        }
        // The activity's trip comes from the write itself: no read of its own before it.
        let checkOff = try app.store.setActivityComplete(id: id.value, isComplete)
        // The page names the badges this check-off earned, so it can say so.
        var query = request.form["editing"] == "1" ? ["edit=1"] : []
        query += checkOff.earnedGoals.map { "\(Self.earnedParameter)=\($0.id)" }
        return .redirect(to: "/trips/\(checkOff.tripID)" + (query.isEmpty ? "" : "?" + query.joined(separator: "&")))
    }

    func confirmDeleteActivity(_ request: Request) throws -> Response {
        let activity = try activity(request)
        return try confirmation(for: request, heading: "Delete Activity",
                                message: "Are you sure you want to delete this activity? “\(activity.name)” will be gone.",
                                action: "/activities/\(activity.id)/delete", cancelURL: "/trips/\(activity.tripID)?edit=1")
    }

    func deleteActivity(_ request: Request) throws -> Response {
        let activity = try activity(request)
        let deletion = try app.store.deleteActivity(id: activity.id)
        return .redirect(to: UndoRoutes.path("/trips/\(activity.tripID)?edit=1", offeringUndoOf: deletion))
    }

    func setSortOrder(_ request: Request) throws -> Response {
        guard let order = request.form["sort"].flatMap(ActivitySortOrder.init(rawValue:)) else {
            throw HTTPError(.badRequest, "Sort by one of: \(ActivitySortOrder.allCases.map(\.label).joined(separator: ", ")).")
        }
        try app.store.setActivitySortOrder(order)
        return .redirect(to: localRedirectPath(request.form["return"]) ?? "/")
    }

    // MARK: Helpers

    func trip(_ request: Request) throws -> Trip {
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

