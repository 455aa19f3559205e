import Foundation
import Persistence

/// Undoing a delete. Deleting keeps a copy of the rows as they were (`Schema.recentlyDeleted`);
/// undoing puts them back with their ids, dates and checked states, so an activity returns to its
/// place in every sort order and a trip to its address, photo and collection. The triggers count
/// what comes back like any insert. Only the latest `keptDeletions`, for `keptFor`, are kept.
extension WishlistStore {
    public static let keptDeletions = 20
    public static let keptFor: TimeInterval = 10 * 60

    /// The deletion, while it can still be undone.
    public func deletion(id: Deletion.ID) throws -> Deletion? {
        try fetch(undoableDeletion(id: id))
    }

    /// `deletion(id:)` as a query, for a screen's snapshot.
    public func undoableDeletion(id: Deletion.ID) -> WishlistQuery<Deletion?> {
        let cutoff = clock.now().addingTimeInterval(-Self.keptFor)
        return WishlistQuery { connection in try DeletedRows.deletion(id: id, notBefore: cutoff, on: connection) }
    }

    /// Puts back what the deletion took; throws `notFound` for a deletion let go of (or never
    /// made) and for an activity whose trip is gone. An id taken since goes to a new one.
    @discardableResult
    public func undoDeletion(id: Deletion.ID, author: String = appAuthor) throws -> Deletion {
        let cutoff = clock.now().addingTimeInterval(-Self.keptFor)
        return try database.write(author: author) { connection in
            guard let deletion = try DeletedRows.deletion(id: id, notBefore: cutoff, on: connection) else {
                throw WishlistError.notFound(entity: "deletion", id: id)
            }
            let tripID = switch deletion.kind {
            case .trip: try DeletedRows.restoreTrip(of: id, on: connection)
            case .activity, .photo: deletion.tripID
            }
            try Self.requireTrip(id: tripID, on: connection)
            try DeletedRows.restoreActivities(of: id, toTrip: tripID, on: connection)
            try DeletedRows.restorePhotos(of: id, toTrip: tripID, on: connection)
            try DeletedRows.forget(deletionsWhere: "id = ?", [id], on: connection)
            return Deletion(id: id, kind: deletion.kind, name: deletion.name, tripID: tripID, date: deletion.date)
        }
    }

    /// Lets go of deletions past `keptFor` and the photos only they kept (startup does this before
    /// the photo sweep; each delete does it too).
    public func forgetExpiredDeletions() throws {
        try photos.committing(nil) { _ in
            try database.write(author: Self.appAuthor) { connection in ((), released: try forgetOldDeletions(on: connection)) }
        }
    }

    /// Deletes the row `id` of `kind`, keeping a copy for `undoDeletion` (a trip's with its
    /// activities and photos); photo files go only when the copy is let go of.
    func deleteUndoably(_ kind: Deletion.Kind, id: Int64, author: String) throws -> Deletion {
        let (table, name, trip) = switch kind {
        case .trip: ("Trip", "name", "id")
        case .activity: ("Activity", "name", "trip_id")
        case .photo: ("Photo", "caption", "trip_id")
        }
        return try photos.committing(nil) { _ in
            try database.write(author: author) { connection in
                guard let row = try connection.fetchOne("SELECT \(name) AS name, \(trip) AS trip_id FROM \(table) WHERE id = ?", [id]) else {
                    throw WishlistError.notFound(entity: kind.rawValue, id: id)
                }
                let (deletion, released) = try recordDeletion(kind, name: row["name"], tripID: row["trip_id"], rowID: id, on: connection)
                try connection.execute("DELETE FROM \(table) WHERE id = ?", [id])
                return (deletion, released: released)
            }
        }
    }

    /// Records the deletion of the row `rowID` of `kind`, about to happen, copying its rows (a
    /// trip's with its activities and photos); lets go of the oldest past the limits. Returns it
    /// and the files let go of.
    private func recordDeletion(_ kind: Deletion.Kind, name: String, tripID: Trip.ID, rowID: Int64,
                        on connection: Connection) throws -> (Deletion, released: [String]) {
        let released = try forgetOldDeletions(on: connection)
        let id = try Schema.nextDeletionID(on: connection)
        let date = clock.now()
        try connection.execute("INSERT INTO Deletion (id, date_deleted, entity, name, trip_id) VALUES (?, ?, ?, ?, ?)",
                               [id, date, kind.rawValue, name, tripID])
        switch kind {
        case .trip:
            try DeletedRows.copyTrip(tripID, as: id, on: connection)
            try DeletedRows.copy("Activity", where: "trip_id = ?", rowID, as: id, on: connection)
            try DeletedRows.copy("Photo", where: "trip_id = ?", rowID, as: id, on: connection)
        case .activity: try DeletedRows.copy("Activity", where: "id = ?", rowID, as: id, on: connection)
        case .photo: try DeletedRows.copy("Photo", where: "id = ?", rowID, as: id, on: connection)
        }
        return (Deletion(id: id, kind: kind, name: name, tripID: tripID, date: date), released)
    }

    /// Deletions past `keptFor`, and beyond the newest `keptDeletions - 1` (making room for one
    /// more), go with their copies; returns the photo files nothing references any more.
    private func forgetOldDeletions(on connection: Connection) throws -> [String] {
        let cutoff = clock.now().addingTimeInterval(-Self.keptFor)
        return try DeletedRows.forget(deletionsWhere: """
            date_deleted < ? OR id NOT IN (SELECT id FROM Deletion ORDER BY id DESC LIMIT ?)
            """, [cutoff, Self.keptDeletions - 1], on: connection)
    }
}
