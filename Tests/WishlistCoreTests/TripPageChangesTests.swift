import Persistence
import Testing
@testable import WishlistCore

/// Which trip pages a device keeping them offline fetches again: named from the history.
@Suite struct TripPageChangesTests {
    let test: TestStore
    let first: Trip, second: Trip

    init() throws {
        test = try TestStore()
        let trips = try test.store.recentTrips(limit: 2)
        first = try #require(trips.first)
        second = try #require(trips.last)
    }

    var now: Int64 { get throws { try test.store.database.latestHistoryToken() } }

    @Test func nothingChangedNamesNoTripAndKeepsTheToken() throws {
        let token = try now
        #expect(try test.store.tripPageChanges(after: HistoryCursor(token: token)) == TripPageChanges(token: token, trips: []))
    }

    @Test func aRenamedActivityNamesItsTripAlone() throws {
        let token = try now
        let activity = try #require(try test.store.activities(tripID: first.id, sortedBy: .title).first)
        try test.store.renameActivity(id: activity.id, name: "Sunrise hike")
        let changes = try test.store.tripPageChanges(after: HistoryCursor(token: token))
        #expect(changes == TripPageChanges(token: try now, trips: [first.id]))
    }

    @Test func editsCheckOffsAndDeletionsNameEachTrip() throws {
        let token = try now
        let activity = try #require(try test.store.activities(tripID: first.id, sortedBy: .title).first)
        _ = try test.store.setActivityComplete(id: activity.id, !activity.isComplete)
        _ = try test.store.deleteTrip(id: second.id)
        #expect(try test.store.tripPageChanges(after: HistoryCursor(token: token)).trips == [first.id, second.id])
        let afterCheckOff = try now
        let added = try test.store.addActivity(tripID: first.id, name: "Ferry")
        _ = try test.store.deleteActivity(id: added)
        #expect(try test.store.tripPageChanges(after: HistoryCursor(token: afterCheckOff)).trips == [first.id])
    }

    @Test func aNewChecklistOrderChangesEveryTripPage() throws {
        let token = try now
        try test.store.setActivitySortOrder(.dateCreated)
        #expect(try test.store.tripPageChanges(after: HistoryCursor(token: token)) == TripPageChanges(token: try now, trips: nil))
    }

    @Test func aCursorFromAnotherHistoryChangesEveryTripPage() throws {
        let changes = try test.store.tripPageChanges(after: HistoryCursor(token: try now + 5))
        #expect(changes == TripPageChanges(token: try now, trips: nil))
    }

    @Test func moreChangesThanOneLookReadsChangeEveryTripPage() throws {
        let token = try now
        for index in 0...(TripPageChanges.changeLimit / 2) {
            _ = try test.store.addActivity(tripID: first.id, name: "Stop \(index)")
        }
        #expect(try test.store.tripPageChanges(after: HistoryCursor(token: token)).trips == nil)
    }
}
