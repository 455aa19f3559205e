import Foundation
import Persistence

/// The writes of the app. Each runs in one transaction; the triggers of the schema keep trip
/// completion, goal progress and the search index right within it. Unknown ids throw
/// `WishlistError.notFound`, invalid text `ValidationError`.
extension WishlistStore {
    public static let appAuthor = "app"

    /// Adds a trip, with the photo at `photoPath` if given (an upload's temporary file: it is
    /// copied, not moved). A photo the user must fix throws `ValidationError` for "photo", and
    /// then nothing is stored.
    @discardableResult
    public func addTrip(_ draft: TripDraft, photoAt photoPath: String? = nil, author: String = appAuthor) throws -> Trip.ID {
        let trip = try draft.validated()
        let photo = try photoPath.map(photos.prepare)
        return try photos.committing(photo) { stored in
            try database.write(author: author) { connection in
                let id = try Rows.insertTrip(trip, creationDate: clock.now(), on: connection)
                if let stored { try PhotoRows.add(stored, toTrip: id, .first, on: connection) }
                return (id, released: [])
            }
        }
    }

    /// Changes the trip's text and, given `photoPath`, makes that photo its cover (the old cover
    /// stays in the trip's gallery, second). With `expected`
    /// (the `editVersion` the form was drawn with), a trip changed meanwhile is not overwritten:
    /// `WishlistError.changedMeanwhile`.
    public func updateTrip(id: Trip.ID, draft: TripDraft, photoAt photoPath: String? = nil, expected: String? = nil,
                           author: String = appAuthor) throws {
        let trip = try draft.validated()
        let photo = try photoPath.map(photos.prepare)
        try photos.committing(photo) { stored in
            try database.write(author: author) { connection in
                if let expected { try Self.requireTrip(id: id, unchangedFrom: expected, on: connection) }
                try Rows.updateTrip(id: id, trip, on: connection)
                try Self.requireChange(on: connection, entity: "trip", id: id)
                if let stored { try PhotoRows.add(stored, toTrip: id, .first, on: connection) }
                return ((), released: [])
            }
        }
    }

    private static func requireTrip(id: Trip.ID, unchangedFrom version: String, on connection: Connection) throws {
        let now = try connection.fetchOne(Trip.self, "SELECT \(Trip.selection) FROM Trip WHERE id = ?", [id])
        if let now, now.editVersion != version { throw WishlistError.changedMeanwhile(entity: "trip") }
    }

    /// Deletes the trip with its activities; its photo stays while the deletion can be undone
    /// (`WishlistStore+Undo`), its files deleted after the commit that lets go of it.
    @discardableResult
    public func deleteTrip(id: Trip.ID, author: String = appAuthor) throws -> Deletion {
        try deleteUndoably(.trip, id: id, author: author)
    }

    @discardableResult
    public func addActivity(tripID: Trip.ID, name: String, author: String = appAuthor) throws -> Activity.ID {
        let name = try Self.validatedActivityName(name)
        return try database.write(author: author) { connection in
            try Self.requireTrip(id: tripID, on: connection)
            let now = clock.now()
            return try Rows.insertActivity(tripID: tripID, name: name, isComplete: false,
                                           dateCreated: now, dateEdited: now, on: connection)
        }
    }

    /// With `expected` (the name the person saw), a name changed meanwhile to another is not
    /// overwritten: `WishlistError.renamedMeanwhile`.
    public func renameActivity(id: Activity.ID, name: String, expected: String? = nil, author: String = appAuthor) throws {
        let name = try Self.validatedActivityName(name)
        try database.write(author: author) { connection in
            if let expected, let now = try connection.fetchScalar(String.self, "SELECT name FROM Activity WHERE id = ?", [id]),
               now != expected, now != name {
                throw WishlistError.renamedMeanwhile(entity: "activity", now: now)
            }
            try connection.execute("UPDATE Activity SET name = ?, name_folded = ?, date_edited = ? WHERE id = ?",
                                   [name, name.folded, clock.now(), id])
            try Self.requireChange(on: connection, entity: "activity", id: id)
        }
    }

    /// Checks or unchecks an activity. Setting the state it already has changes nothing (a form
    /// sent twice does not move its edit date). Returns the activity's trip and the goals this
    /// earned, read in the same transaction (a page goes back to the trip and announces them).
    @discardableResult
    public func setActivityComplete(id: Activity.ID, _ isComplete: Bool, author: String = appAuthor) throws -> CheckOff {
        try database.write(author: author) { connection in
            // Ids before and after; whole goals only for one earned now, which few check-offs do.
            func achievedIDs() throws -> Set<Int64> {
                Set(try connection.fetchAll("SELECT id FROM Goal WHERE is_achieved").map { $0["id"] as Int64 })
            }
            let achievedBefore = try achievedIDs()
            try connection.execute("UPDATE Activity SET is_complete = ?, date_edited = ? WHERE id = ? AND is_complete <> ?",
                                   [isComplete, clock.now(), id, isComplete])
            let changed = connection.changes > 0
            // After the UPDATE: whatever ran in this transaction, the activity is there when it commits.
            guard let tripID = try connection.fetchOne("SELECT trip_id FROM Activity WHERE id = ?", [id]).map({ $0["trip_id"] as Trip.ID }) else {
                throw WishlistError.notFound(entity: "activity", id: id)
            }
            let earned = changed ? try achievedIDs().subtracting(achievedBefore) : []
            guard !earned.isEmpty else { return CheckOff(tripID: tripID, earnedGoals: []) }
            let achieved = try WishlistQuery<[Goal]>.achievedGoals.fetch(connection)
            return CheckOff(tripID: tripID, earnedGoals: achieved.filter { earned.contains($0.id) })
        }
    }

    /// Deletes the activity, keeping it to be put back by `undoDeletion`.
    @discardableResult
    public func deleteActivity(id: Activity.ID, author: String = appAuthor) throws -> Deletion {
        try deleteUndoably(.activity, id: id, author: author)
    }

    public func setActivitySortOrder(_ order: ActivitySortOrder, author: String = appAuthor) throws {
        try database.write(author: author) { connection in
            try Preferences.set(.activitySortOrder, to: order.rawValue, on: connection)
        }
    }

    static func validatedActivityName(_ name: String) throws(ValidationError) -> String {
        try TextRules.required(name, field: "name", noun: "activity name", emptyMessage: "Enter an activity name.")
    }

    /// Throws `notFound` when there is no trip `id`.
    static func requireTrip(id: Trip.ID, on connection: Connection) throws {
        guard try connection.fetchOne("SELECT 1 FROM Trip WHERE id = ?", [id]) != nil else {
            throw WishlistError.notFound(entity: "trip", id: id)
        }
    }

    /// Throws `notFound` when the last UPDATE or DELETE matched no row.
    private static func requireChange(on connection: Connection, entity: String, id: Int64) throws {
        if connection.changes == 0 { throw WishlistError.notFound(entity: entity, id: id) }
    }
}
