import HTTPServer
import Mustache
import WishlistCore

/// The trip page (`/trips/:id`): cover photo, progress, the activity checklist and the gallery
/// (`TripPage+Gallery.swift`); `?edit=1` is edit
/// mode (a URL state, so leaving the page leaves edit mode). Every change is a plain form post
/// answered with 303 back to the page (`TripPage+Changes.swift`); the script turns the common
/// ones into in-place updates.
struct TripPage {
    let app: WishlistApp

    func register(on router: inout Router) {
        router.page("/trips/:id") { request in
            let id = try RecordID(request.parameters["id"], entity: "trip").value
            return try app.pages.cached(request, read: { try read(request, tripID: id, $0) }, draw: { try draw(request, tripID: id, $0) })
        }
        registerChanges(on: &router)
        registerGallery(on: &router)
    }

    /// Activity names typed in a form that was not saved: shown again in their fields, the one
    /// refused with the reason beside it.
    struct RenameProblem: Sendable {
        var typed: [Int64: String]
        var refused: (activityID: Int64, message: String)?
    }

    /// The edit-mode form: the trip's fields and the activity renames, which leaving saves.
    static let formID = "edit-trip"

    /// Names a badge the last check-off earned (`?earned=<goal id>`), which the page announces.
    static let earnedParameter = "earned"

    func render(_ request: Request, form: TripForm? = nil, newActivity: (value: String, error: String?)? = nil,
                rename: RenameProblem? = nil, uploads: [UploadProblem] = [], status: HTTPStatus = .ok) throws -> SharedResponse {
        try render(request, tripID: try RecordID(request.parameters["id"], entity: "trip").value,
                   form: form, newActivity: newActivity, rename: rename, uploads: uploads, status: status)
    }

    /// The page showing a form's problems (not kept): its typed values stay in their fields.
    func render(_ request: Request, tripID id: Int64, form: TripForm? = nil, newActivity: (value: String, error: String?)? = nil,
                rename: RenameProblem? = nil, uploads: [UploadProblem] = [], status: HTTPStatus = .ok) throws -> SharedResponse {
        try app.pages.uncached(read: { try read(request, tripID: id, $0) }) { shown in
            try draw(request, tripID: id, shown, form: form, newActivity: newActivity, rename: rename, uploads: uploads, status: status)
        }
    }

    /// Everything the page shows, read in one snapshot.
    struct Shown: Sendable {
        let header: FragmentRead<TripHeaderFragment>
        let checklist: FragmentRead<ActivityListFragment>
        let gallery: FragmentRead<TripGalleryFragment>
        /// The goals achieved, when the page announces badges just earned.
        let achieved: [Goal]
        let deletion: Deletion?
    }

    func read(_ request: Request, tripID id: Int64, _ snapshot: WishlistSnapshot) throws -> Shown {
        let announcesBadges = !request.query.all(Self.earnedParameter).isEmpty
        let editing = request.query["edit"] == "1"
        return Shown(header: try TripHeaderFragment(tripID: id).read(in: snapshot),
                     checklist: try ActivityListFragment(tripID: id, editing: editing).read(in: snapshot),
                     gallery: try TripGalleryFragment(tripID: id).read(in: snapshot),
                     achieved: announcesBadges ? try snapshot.fetch(.achievedGoals) : [],
                     deletion: try UndoRoutes.deletion(for: request, store: app.store, in: snapshot))
    }

    func draw(_ request: Request, tripID id: Int64, _ shown: Shown, form: TripForm? = nil,
              newActivity: (value: String, error: String?)? = nil, rename: RenameProblem? = nil,
              uploads: [UploadProblem] = [], status: HTTPStatus = .ok) throws -> SharedResponse {
        let editing = request.query["edit"] == "1" || form != nil || newActivity != nil || rename != nil
        guard let checklist = shown.checklist.value else {
            throw HTTPError(.notFound, "There is no trip number \(id). It may have been deleted.")
        }
        let trip = checklist.trip
        var fragments = app.pages.fragmentPlaces()
        let earnedIDs = Set(request.query.all(Self.earnedParameter).compactMap { Int64($0) })
        var context: [String: MustacheValue] = [
            "trip": ["id": .int(Int(trip.id)), "name": .string(trip.name)],
            "header": try fragments.place(shown.header),
            // A rename that could not be saved shows in this page alone: its list is not kept.
            "list": try rename.map { rename in
                try fragments.place(unkept: ActivityListView(checklist: checklist, editing: editing, rename: rename))
            } ?? fragments.place(FragmentRead(fragment: ActivityListFragment(tripID: id, editing: editing), read: shown.checklist.read)),
            "gallery": try fragments.place(shown.gallery),
            "uploadField": .string(Self.uploadField),
            "uploadProblems": .array(uploads.map(\.mustacheValue)),
            "hasUploadProblems": .bool(!uploads.isEmpty),
            "uploadsRefused": .bool(uploads.contains(where: \.refused)),
            "editing": .bool(editing),
            "notice": try fragments.place(unkept: TripNoticeView(deletion: shown.deletion,
                                                                 earned: shown.achieved.filter { earnedIDs.contains($0.id) })),
        ]
        if editing {
            let form = form ?? TripForm(trip: trip)
            context["form"] = .object(form.context(
                formID: Self.formID, action: "/trips/\(trip.id)", heading: "Edit Trip", submitLabel: "Save Changes",
                cancelURL: nil, photo: PhotoFieldView(current: trip, maxBytes: app.configuration.maxPhotoBytes)))
            var field: [String: MustacheValue] = ["value": .string(newActivity?.value ?? "")]
            if let error = newActivity?.error { field["error"] = .string(error) }
            context["newActivity"] = .object(field)
        }
        return try app.pages.render("trip", for: request, tab: .wishlist, liveTopics: [.tripHeader(tripID: id), .activityList(tripID: id, editing: editing), .tripGallery(tripID: id)],
                                    status: status, savingForm: editing ? Self.formID : nil, fragments: fragments, context)
    }
}

/// What the last change on the page did: the Undo of a delete, badges a check-off earned.
/// A fragment, so a script swaps it in with the checklist after an in-place change.
struct TripNoticeView: FragmentView {
    static let partial = "partials/trip-notice"
    let deletion: Deletion?
    let earned: [Goal]
    var elementID: String { "trip-notice" }

    var mustacheValue: MustacheValue {
        object(["undo": UndoRoutes.notice(deletion),
                "earned": .array(earned.map { ["name": .string($0.name), "badge": .string($0.badge)] })])
    }
}

/// The trip's photo, name, collection and progress.
struct TripHeaderFragment: Fragment {
    let tripID: Int64
    var topic: LiveTopic { .tripHeader(tripID: tripID) }
    var query: WishlistQuery<Trip?> { .trip(id: tripID) }
    func view(_ trip: Trip?) -> TripHeaderView? { trip.map(TripHeaderView.init) }
}

struct TripHeaderView: FragmentView {
    static let partial = "partials/trip-header"
    let trip: Trip
    var elementID: String { "trip-header" }

    var mustacheValue: MustacheValue {
        var fields: [String: MustacheValue] = [
            "id": .int(Int(trip.id)),
            "name": .string(trip.name),
            "nameLength": .string(TripViews.nameLength(trip.name)),
            "collectionTitle": .string(trip.collection.title),
            "percentComplete": .int(TripViews.percent(trip.completionFraction)),
        ]
        if let photo = trip.photo {
            fields["photoURL"] = .string(PhotoRoutes.renditionURL(.trip(trip.id), size: .large, version: photo.version))
            fields["photoSourceSet"] = .string(PhotoRoutes.renditionSourceSet(.trip(trip.id), photo: photo))
            fields["originalURL"] = .string(PhotoRoutes.originalURL(.trip(trip.id), version: photo.version))
            fields["photoWidth"] = .int(photo.width)
            fields["photoHeight"] = .int(photo.height)
            fields["photoAlt"] = .string("Photo of \(trip.name)")
        } else {
            fields["photoWidth"] = .int(TripViews.placeholderSize.width)
            fields["photoHeight"] = .int(TripViews.placeholderSize.height)
            fields["photoAlt"] = .string("No photo of \(trip.name) yet")
        }
        if let subtitle = trip.subtitle, !subtitle.isEmpty { fields["subtitle"] = .string(subtitle) }
        if let destination = trip.destination { fields["destination"] = .string(destination.name) }
        if let dates = TripViews.dateRangeText(start: trip.startDate, end: trip.endDate) { fields["dates"] = .string(dates) }
        if trip.destination?.coordinate != nil { fields["place"] = ["files": PlaceExportRoutes.linkValues(.trip(trip.id))] }
        return object(fields)
    }
}

/// The trip's checklist in the remembered order; in edit mode with rename fields.
struct ActivityListFragment: Fragment {
    let tripID: Int64
    var editing = false

    var topic: LiveTopic { .activityList(tripID: tripID, editing: editing) }
    var query: WishlistQuery<TripChecklist?> { .checklist(tripID: tripID) }
    func view(_ checklist: TripChecklist?) -> ActivityListView? {
        checklist.map { ActivityListView(checklist: $0, editing: editing, rename: nil) }
    }
}

/// With a rename that could not be saved shown in its field (pages only: live updates have none).
struct ActivityListView: FragmentView {
    static let partial = "partials/activity-list"
    let checklist: TripChecklist
    let editing: Bool
    let rename: TripPage.RenameProblem?
    var elementID: String { "activity-list" }

    var mustacheValue: MustacheValue {
        object([
            "tripID": .int(Int(checklist.trip.id)),
            "editing": .bool(editing),
            "remainingText": .string(Self.remainingText(checklist.trip)),
            "hasActivities": .bool(!checklist.activities.isEmpty),
            "sortOptions": .array(ActivitySortOrder.allCases.map { option in
                ["value": .string(option.rawValue), "label": .string(option.label), "selected": .bool(option == checklist.order)]
            }),
            "activities": .array(checklist.activities.map { activity in
                var row: [String: MustacheValue] = [
                    "id": .int(Int(activity.id)),
                    "name": .string(activity.name),
                    "editValue": .string(rename?.typed[activity.id] ?? activity.name),
                    "isComplete": .bool(activity.isComplete),
                    "toggleValue": .string(activity.isComplete ? "false" : "true"),
                ]
                if let refused = rename?.refused, refused.activityID == activity.id {
                    row["renameError"] = .string(refused.message)
                }
                return .object(row)
            }),
        ])
    }

    static func remainingText(_ trip: Trip) -> String {
        switch (trip.activityCount, trip.remainingActivityCount) {
        case (0, _): "No activities yet"
        case (_, 0): "All done"
        case (_, 1): "1 remaining activity"
        case (_, let remaining): "\(remaining) remaining activities"
        }
    }
}
