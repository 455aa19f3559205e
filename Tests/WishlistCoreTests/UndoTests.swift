import Foundation
import Places
import Testing
import TestSupport
@testable import WishlistCore

/// Undoing deletes: what comes back is what went (ids, names, checked states, dates, photo,
/// collection, goal progress), for a bounded number and time, and a deleted trip's photo files
/// stay until its deletion is let go of.
@Suite struct UndoTests {
    let clock = ManualClock()
    let test: TestStore
    private var store: WishlistStore { test.store }

    init() throws { test = try TestStore(clock: clock) }

    /// A trip of three activities added a second apart, the second checked; with a real photo.
    private func tripWithActivities(photo: Bool = false) throws -> Trip.ID {
        let fixtures = try PhotoFixtures()
        let path = photo ? try fixtures.write(fixtures.photo(width: 800, height: 600), as: "photo.jpg") : nil
        let id = try store.addTrip(TripDraft(name: "Faroe Cliffs", subtitle: "Puffins", collection: .summerVibes,
                                             destination: TripDestination(name: "Tórshavn, Faroe Islands",
                                                                          coordinate: Coordinate(latitude: 62.01, longitude: -6.77)),
                                             startDate: "2027-06-01", endDate: "2027-06-09"), photoAt: path)
        for name in ["Boat to Mykines", "Gásadalur waterfall", "Sheep count"] {
            clock.advance(by: .seconds(1))
            try store.addActivity(tripID: id, name: name)
        }
        try store.setActivityComplete(id: try store.activities(tripID: id, sortedBy: .dateCreated)[1].id, true)
        return id
    }

    @Test func undoingAnActivityDeletePutsItBackAsItWas() throws {
        let tripID = try tripWithActivities()
        let before = try store.activities(tripID: tripID, sortedBy: .dateCreated)
        let tripBefore = try store.trip(id: tripID)
        let deletion = try store.deleteActivity(id: before[1].id)
        #expect(deletion.name == "Gásadalur waterfall" && deletion.kind == .activity && deletion.tripID == tripID)
        #expect(try store.activities(tripID: tripID, sortedBy: .dateCreated).count == 2)

        let undone = try store.undoDeletion(id: deletion.id)
        #expect(undone.tripID == tripID)
        #expect(try store.activities(tripID: tripID, sortedBy: .dateCreated) == before)
        #expect(try store.trip(id: tripID) == tripBefore, "counts and completion are back too")
        #expect(try store.search("Gásadalur").activities.map(\.activity.id).contains(before[1].id))
        #expect(try store.deletion(id: deletion.id) == nil, "an undo is done once")
    }

    @Test func undoingATripDeletePutsBackItsActivitiesPhotoAndProgress() throws {
        let tripID = try tripWithActivities(photo: true)
        for activity in try store.activities(tripID: tripID, sortedBy: .dateCreated) { try store.setActivityComplete(id: activity.id, true) }
        let (tripBefore, activitiesBefore, goalsBefore) = (try store.trip(id: tripID), try store.activities(tripID: tripID, sortedBy: .dateCreated),
                                                            Set(try store.achievedGoals().map(\.id)))
        let file = try #require(try store.photoFile(tripID: tripID)).fileName
        let deletion = try store.deleteTrip(id: tripID)
        #expect(try store.trip(id: tripID) == nil)
        _ = try store.sweepPhotos()
        #expect(store.photos.contains(file), "a photo that can come back is not swept")

        try store.undoDeletion(id: deletion.id)
        #expect(try store.trip(id: tripID) == tripBefore)
        #expect(try store.activities(tripID: tripID, sortedBy: .dateCreated) == activitiesBefore)
        #expect(Set(try store.achievedGoals().map(\.id)) == goalsBefore, "the badges it earned are earned again")
        #expect(try store.photoFile(tripID: tripID)?.fileName == file)
    }

    @Test func aDeletionIsLetGoOfAfterTenMinutesAndItsPhotoSwept() throws {
        let tripID = try tripWithActivities(photo: true)
        let file = try #require(try store.photoFile(tripID: tripID)).fileName
        let deletion = try store.deleteTrip(id: tripID)
        clock.advance(by: .seconds(WishlistStore.keptFor - 1))
        #expect(try store.deletion(id: deletion.id) != nil)
        clock.advance(by: .seconds(2))
        #expect(try store.deletion(id: deletion.id) == nil)
        #expect(throws: WishlistError.notFound(entity: "deletion", id: deletion.id)) { try store.undoDeletion(id: deletion.id) }
        _ = try store.sweepPhotos()
        #expect(!store.photos.contains(file))
        #expect(try test.count("SELECT count(*) FROM TripImage WHERE file_name = '\(file)'") == 0)
    }

    @Test func onlyTheLatestDeletionsAreKept() throws {
        let tripID = try store.addTrip(TripDraft(name: "Many", collection: .fallGetaways))
        let deletions = try (0...WishlistStore.keptDeletions).map { index in
            try store.deleteActivity(id: try store.addActivity(tripID: tripID, name: "Activity \(index)"))
        }
        #expect(try store.deletion(id: deletions[0].id) == nil)
        #expect(try deletions.dropFirst().allSatisfy { try store.deletion(id: $0.id) != nil })
        #expect(try test.count("SELECT count(*) FROM DeletedActivity") == WishlistStore.keptDeletions)
    }

    @Test func anIDTakenSinceGoesToANewOne() throws {
        let tripID = try tripWithActivities()
        let last = try #require(try store.activities(tripID: tripID, sortedBy: .dateCreated).last)
        let deletion = try store.deleteActivity(id: last.id)
        try store.database.write(author: "test") { connection in
            try connection.execute("INSERT INTO Activity (id, trip_id, name, name_folded, date_created, date_edited) VALUES (?, ?, 'Newcomer', 'newcomer', 0, 0)",
                                   [last.id, tripID])
        }
        try store.undoDeletion(id: deletion.id)
        let activities = try store.activities(tripID: tripID, sortedBy: .dateCreated)
        #expect(Set(activities.map(\.name)) == ["Boat to Mykines", "Gásadalur waterfall", "Sheep count", "Newcomer"])
        let restored = try #require(activities.first { $0.name == last.name })
        #expect(restored.id != last.id && restored.dateCreated == last.dateCreated)
    }

    /// A stale Undo notice, form or script names only the record it was made for: no trip,
    /// activity or deletion id is handed out twice.
    @Test func noIDIsHandedOutTwice() throws {
        let tripID = try tripWithActivities()
        let activityID = try #require(try store.activities(tripID: tripID, sortedBy: .dateCreated).last?.id)
        _ = try store.deleteActivity(id: activityID)
        let firstDeletion = try store.deleteTrip(id: tripID)
        let newTrip = try store.addTrip(TripDraft(name: "Newcomer", collection: .fallGetaways))
        #expect(newTrip > tripID)
        #expect(try store.addActivity(tripID: newTrip, name: "First") > activityID)

        try store.undoDeletion(id: firstDeletion.id)
        let secondDeletion = try store.deleteTrip(id: newTrip)
        #expect(secondDeletion.id > firstDeletion.id)
        // The first notice, still open in another tab, no longer restores anything.
        #expect(throws: WishlistError.notFound(entity: "deletion", id: firstDeletion.id)) {
            try store.undoDeletion(id: firstDeletion.id)
        }
        #expect(try store.trip(id: newTrip) == nil)
    }

    @Test func anActivityComesBackOnlyWithItsTrip() throws {
        let tripID = try tripWithActivities()
        let activityDeletion = try store.deleteActivity(id: try store.activities(tripID: tripID, sortedBy: .dateCreated)[0].id)
        let tripDeletion = try store.deleteTrip(id: tripID)
        #expect(throws: WishlistError.notFound(entity: "trip", id: tripID)) { try store.undoDeletion(id: activityDeletion.id) }
        try store.undoDeletion(id: tripDeletion.id)
        try store.undoDeletion(id: activityDeletion.id)
        #expect(try store.activities(tripID: tripID, sortedBy: .dateCreated).count == 3)
    }
}
