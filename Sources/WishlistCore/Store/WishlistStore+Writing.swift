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

    /// Saves a trip's form in one transaction, all or nothing: its fields (`draft`; nil saves the
    /// renames alone) and, given `photoPath`, that photo as its cover (the old cover stays in the
    /// trip's gallery, second), and the activity names typed beside them. With `expected` (the
    /// `editVersion` the form was drawn with) a trip changed meanwhile, and always an activity
    /// renamed or deleted since its rename's `expected` name, is not overwritten:
    /// `WishlistError.changedMeanwhile`, and nothing is saved.
    public func updateTrip(id: Trip.ID, draft: TripDraft?, photoAt photoPath: String? = nil, expected: String? = nil,
                           renaming renames: [ActivityRename] = [], author: String = appAuthor) throws {
        let trip = try draft?.validated()
        let renames = try renames.map { rename in
            ActivityRename(id: rename.id, name: try Self.validatedActivityName(rename.name), expected: rename.expected)
        }
        let photo = try photoPath.map(photos.prepare)
        try photos.committing(photo) { stored in
            try database.write(author: author) { connection in
                if let expected { try Self.requireTrip(id: id, unchangedFrom: expected, on: connection) }
                for rename in renames { try Self.rename(rename, ofTrip: id, at: clock.now(), on: connection) }
                if let trip {
                    try Rows.updateTrip(id: id, trip, on: connection)
                    try Self.requireChange(on: connection, entity: "trip", id: id)
                }
                if let stored { try PhotoRows.add(stored, toTrip: id, .first, on: connection) }
                return ((), released: [])
            }
        }
    }

    private static func requireTrip(id: Trip.ID, unchangedFrom version: String, on connection: Connection) throws {
        let now = try connection.fetchOne(Trip.self, "SELECT \(Trip.selection) FROM Trip WHERE id = ?", [id])
        if let now, now.editVersion != version { throw WishlistError.changedMeanwhile(entity: "trip") }
    }

    /// One of a trip form's renames; an activity of another trip, or changed since, is refused.
    private static func rename(_ rename: ActivityRename, ofTrip tripID: Trip.ID, at date: Date, on connection: Connection) throws {
        let now = try connection.fetchOne("SELECT name FROM Activity WHERE id = ? AND trip_id = ?", [rename.id, tripID])
            .map { $0["name"] as String }
        guard let now, now == rename.expected || now == rename.name else {
            throw WishlistError.changedMeanwhile(entity: "activity “\(rename.expected)”")
        }
        if now != rename.name { try setActivityName(rename.name, id: rename.id, at: date, on: connection) }
    }

    private static func setActivityName(_ name: String, id: Activity.ID, at date: Date, on connection: Connection) throws {
        try connection.execute("UPDATE Activity SET name = ?, name_folded = ?, date_edited = ? WHERE id = ?",
                               [name, name.folded, date, id])
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
            try Self.setActivityName(name, id: id, at: clock.now(), on: connection)
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

    public static func validatedActivityName(_ name: String) throws(ValidationError) -> String {
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

/// An activity's name typed in a trip's form, with the name the form showed (`expected`).
public struct ActivityRename: Sendable, Equatable {
    public let id: Activity.ID
    public let name: String
    public let expected: String

    public init(id: Activity.ID, name: String, expected: String) {
        (self.id, self.name, self.expected) = (id, name, expected)
    }
}
