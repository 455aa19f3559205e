import Foundation
import Persistence
import Testing
import TestSupport
@testable import WishlistCore

@Suite struct SeedTests {
    @Test func seedingInsertsTheSampleWishlist() throws {
        let test = try TestStore()
        #expect(try test.count("SELECT count(*) FROM Trip") == 12)
        #expect(try test.count("SELECT count(*) FROM Activity") == 37)
        #expect(try test.count("SELECT count(*) FROM Activity WHERE is_complete") == 9)
        #expect(try test.count("SELECT count(*) FROM Trip WHERE is_complete") == 2)
        let achieved = try test.store.achievedGoals().map(\.name)
        #expect(Set(achieved) == ["First Activity", "5 Activities", "First Trip", "Fall Explorer"])
        #expect(try test.store.achievedGoals().allSatisfy { $0.dateAchieved != nil })
        #expect(try test.store.upcomingGoals().allSatisfy { $0.dateAchieved == nil && !$0.isAchieved })
    }

    /// Not one picture in twelve colours: each sample trip shows a place of its own kind.
    @Test func everySampleTripHasALandscapeOfItsOwn() {
        #expect(Set(SampleTrips.all.map(\.landscape)).count == SampleTrips.all.count)
    }

    /// So pages over the seed can be compared byte for byte.
    @Test func theSeedIsDatedByTheStoresClock() throws {
        let clock = ManualClock()
        let test = try TestStore(clock: clock)
        let trips = try TripCollection.allCases.flatMap { try test.store.trips(in: $0, limit: 100) }
        let newest = try #require(trips.map(\.creationDate).max())
        #expect(newest == clock.date.addingTimeInterval(-60))
        #expect(trips.allSatisfy { $0.creationDate < clock.date })
        #expect(try test.store.achievedGoals().allSatisfy { $0.dateAchieved == clock.date })
    }

    @Test func theEighteenGoalsHaveTheirBadgesInOrder() throws {
        let test = try TestStore()
        let goals = try (test.store.achievedGoals() + test.store.upcomingGoals()).sorted { $0.sortOrder < $1.sortOrder }
        #expect(goals.map(\.badge) == [
            "activities-1", "activities-5", "activities-10", "trips-1", "trips-3", "trips-5",
            "spring-1", "spring-3", "spring-5", "summer-1", "summer-3", "summer-5",
            "fall-1", "fall-3", "fall-5", "winter-1", "winter-3", "winter-5",
        ])
        #expect(goals.map(\.name).prefix(7) == [
            "First Activity", "5 Activities", "10 Activities", "First Trip", "3 Trips", "5 Trips", "Spring Explorer",
        ])
        #expect(goals[1].achievedSubtitle == "You earned this award for completing your 5th trip activity.")
        #expect(goals[3].achievedSubtitle == "You earned this award for completing your first trip in your Wishlist.")
        #expect(goals[7].achievedSubtitle == "You earned this award for completing your 3rd spring trip.")
        #expect(goals[16].kind == .collectionTrips(.winterRetreats) && goals[16].target == 3)
    }

    @Test func recentTripsAreTheLastSampleTripsNewestFirst() throws {
        let test = try TestStore()
        #expect(try test.store.recentTrips().map(\.name) == [
            "Maui Rainforest", "Desert Off-Road", "Kona Deep Dive", "Hunting Auroras", "Hike Joshua Tree",
        ])
    }

    @Test func collectionsListTheirTripsByName() throws {
        let test = try TestStore()
        #expect(try test.store.trips(in: .springEscapes).map(\.name) == ["Cali Coastal Trails", "Japan Mystique", "Mont Blanc Powder"])
        #expect(try test.store.trips(in: .winterRetreats, limit: 2, offset: 1).map(\.name) == ["Hike Joshua Tree", "Hunting Auroras"])
        #expect(try TripCollection.allCases.map { try test.store.tripCount(in: $0) } == [3, 3, 3, 3])
        let angkor = try #require(try test.store.trips(in: .winterRetreats).first)
        #expect(angkor.name == "Angkor Temple Run")
        #expect((angkor.activityCount, angkor.completedActivityCount, angkor.remainingActivityCount) == (5, 3, 2))
        #expect(angkor.completionFraction == 0.6)
    }

    @Test func seedingHappensOnlyOnceEvenAfterEverythingIsDeleted() throws {
        let test = try TestStore()
        try test.deleteAllTrips()
        try test.reopen()
        #expect(try test.count("SELECT count(*) FROM Trip") == 0)
        #expect(try test.store.achievedGoals().isEmpty)
    }

    @Test func dataSurvivesAReopen() throws {
        let test = try TestStore()
        let tripID = try test.store.addTrip(TripDraft(name: "Lisbon Trams", subtitle: "Tiles and pastries", collection: .springEscapes))
        let activityID = try test.store.addActivity(tripID: tripID, name: "Ride tram 28")
        try test.store.setActivityComplete(id: activityID, true)
        try test.store.setActivitySortOrder(.dateEdited)
        let before = try test.store.trip(id: tripID)
        try test.reopen()
        #expect(try test.store.trip(id: tripID) == before)
        #expect(try test.store.activities(tripID: tripID, sortedBy: .title).map(\.isComplete) == [true])
        #expect(try test.store.activitySortOrder() == .dateEdited)
        #expect(try test.count("SELECT count(*) FROM Trip") == 13)
    }

    @Test func historyNamesTheAuthorAndTheEntitiesOfEachWrite() throws {
        let test = try TestStore()
        let seed = try test.store.database.fetchHistory(after: 0)
        #expect(seed.map(\.author) == ["seed"])
        #expect(Set(seed[0].changes.map(\.entity)) == ["Trip", "TripImage", "Photo", "Activity", "Goal", "Preference"])

        let token = try test.store.database.latestHistoryToken()
        let trip = try #require(try test.store.recentTrips(limit: 1).first)
        let activityID = try test.store.addActivity(tripID: trip.id, name: "Swim")
        let added = try test.store.database.fetchHistory(after: token, authors: ["app"], entities: ["Activity"])
        #expect(added.count == 1)
        #expect(added.first?.changes == [HistoryChange(entity: "Activity", rowID: activityID, kind: .insert)])
        #expect(try test.store.database.fetchHistory(after: token, authors: ["seed"]).isEmpty)
    }
}
