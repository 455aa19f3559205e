import Foundation
import Testing
import TestSupport
@testable import WishlistCore

@Suite struct RuleTests {
    @Test func renamingAndCheckingSetDateEdited() throws {
        let clock = ManualClock()
        let test = try TestStore(clock: clock)
        let tripID = try test.store.addTrip(TripDraft(name: "Oslo", collection: .winterRetreats))
        let activityID = try test.store.addActivity(tripID: tripID, name: "Sauna by the fjord")
        let created = try #require(try test.store.activity(id: activityID))
        #expect(created.dateEdited == created.dateCreated)

        clock.advance(by: .milliseconds(5))
        try test.store.renameActivity(id: activityID, name: "  Floating sauna by the fjord ")
        let renamed = try #require(try test.store.activity(id: activityID))
        #expect(renamed.name == "Floating sauna by the fjord")
        #expect(renamed.dateEdited == test.store.clock.now() && renamed.dateEdited > created.dateEdited)
        #expect(renamed.dateCreated == created.dateCreated)

        clock.advance(by: .milliseconds(5))
        try test.store.setActivityComplete(id: activityID, true)
        let checked = try #require(try test.store.activity(id: activityID))
        #expect(checked.isComplete)
        #expect(checked.dateEdited == test.store.clock.now() && checked.dateEdited > renamed.dateEdited)

        clock.advance(by: .milliseconds(5))
        try test.store.setActivityComplete(id: activityID, true)
        #expect(try test.store.activity(id: activityID)?.dateEdited == checked.dateEdited)
    }

    @Test func aTripIsCompleteWhenItHasActivitiesAndAllAreDone() throws {
        let test = try TestStore()
        let tripID = try test.store.addTrip(TripDraft(name: "Lofoten", collection: .summerVibes))
        #expect(try test.store.trip(id: tripID)?.isComplete == false)

        let hike = try test.store.addActivity(tripID: tripID, name: "Hike Reinebringen")
        try test.store.setActivityComplete(id: hike, true)
        #expect(try test.store.trip(id: tripID)?.isComplete == true)

        let kayak = try test.store.addActivity(tripID: tripID, name: "Kayak at midnight")
        let withNewActivity = try #require(try test.store.trip(id: tripID))
        #expect(!withNewActivity.isComplete)
        #expect((withNewActivity.activityCount, withNewActivity.remainingActivityCount) == (2, 1))

        try test.store.deleteActivity(id: kayak)
        #expect(try test.store.trip(id: tripID)?.isComplete == true)

        try test.store.deleteActivity(id: hike)
        let empty = try #require(try test.store.trip(id: tripID))
        #expect(!empty.isComplete && empty.activityCount == 0)
    }

    @Test func activityGoalsCrossTheirTargetUpAndBack() throws {
        let test = try TestStore()
        try test.deleteAllTrips()
        let tripID = try test.store.addTrip(TripDraft(name: "Crete", collection: .summerVibes))
        let activities = try (1...5).map { try test.store.addActivity(tripID: tripID, name: "Beach \($0)") }
        #expect(try !test.goal("activities-1").isAchieved)

        try test.store.setActivityComplete(id: activities[0], true)
        let first = try test.goal("activities-1")
        #expect(first.isAchieved && first.completedCount == 1 && first.dateAchieved != nil)

        for id in activities.dropFirst(1) { try test.store.setActivityComplete(id: id, true) }
        #expect(try test.goal("activities-5").isAchieved)
        #expect(try test.goal("activities-10").completedCount == 5)
        #expect(try test.goal("activities-10").progressFraction == 0.5)

        try test.store.setActivityComplete(id: activities[4], false)
        let five = try test.goal("activities-5")
        #expect(!five.isAchieved && five.dateAchieved == nil && five.completedCount == 4)
        #expect(try test.goal("activities-1").dateAchieved == first.dateAchieved)

        for id in activities.prefix(4) { try test.store.deleteActivity(id: id) }
        #expect(try !test.goal("activities-1").isAchieved)
        #expect(try test.goal("activities-1").dateAchieved == nil)
    }

    @Test func tripAndCollectionGoalsFollowCompletionAndMoves() throws {
        let test = try TestStore()
        try test.deleteAllTrips()
        let tripID = try test.store.addTrip(TripDraft(name: "Kyoto", collection: .springEscapes))
        let activityID = try test.store.addActivity(tripID: tripID, name: "Philosopher's Path")
        try test.store.setActivityComplete(id: activityID, true)
        #expect(try test.goal("trips-1").isAchieved)
        #expect(try test.goal("spring-1").isAchieved)
        let firstTripDate = try test.goal("trips-1").dateAchieved
        #expect(firstTripDate != nil)

        try test.store.updateTrip(id: tripID, draft: TripDraft(name: "Kyoto", collection: .fallGetaways))
        #expect(try !test.goal("spring-1").isAchieved)
        #expect(try test.goal("spring-1").dateAchieved == nil)
        #expect(try test.goal("fall-1").isAchieved)
        #expect(try test.goal("trips-1").dateAchieved == firstTripDate)

        try test.store.setActivityComplete(id: activityID, false)
        #expect(try !test.goal("trips-1").isAchieved)
        #expect(try !test.goal("fall-1").isAchieved)

        try test.store.setActivityComplete(id: activityID, true)
        #expect(try test.goal("fall-1").isAchieved)
        try test.store.deleteTrip(id: tripID)
        #expect(try test.store.achievedGoals().isEmpty)
    }

    @Test func threeCompleteTripsOfOneSeasonEarnItsSecondBadge() throws {
        let test = try TestStore()
        let winter = try test.store.trips(in: .winterRetreats)
        let pending = try winter.flatMap { try test.store.activities(tripID: $0.id, sortedBy: .title) }.filter { !$0.isComplete }
        for activity in pending { try test.store.setActivityComplete(id: activity.id, true) }
        #expect(try test.goal("winter-3").isAchieved)
        #expect(try test.goal("trips-5").isAchieved)
        #expect(try test.goal("trips-5").completedCount == 5)

        try test.store.setActivityComplete(id: pending[0].id, false)
        #expect(try !test.goal("winter-3").isAchieved)
        #expect(try test.goal("winter-3").dateAchieved == nil)
        #expect(try test.goal("trips-3").isAchieved)
    }

    @Test func deletingATripDeletesItsActivitiesAndUpdatesGoals() throws {
        let test = try TestStore()
        let fall = try test.store.trips(in: .fallGetaways)
        let narrows = try #require(fall.first { $0.name == "Braving the Narrows" })
        let activityIDs = try test.store.activities(tripID: narrows.id, sortedBy: .title).map(\.id)
        #expect(activityIDs.count == 2)

        try test.store.deleteTrip(id: narrows.id)
        #expect(try test.store.trip(id: narrows.id) == nil)
        #expect(try activityIDs.allSatisfy { try test.store.activity(id: $0) == nil })
        #expect(try test.goal("activities-1").completedCount == 7)
        #expect(try test.goal("trips-1").completedCount == 1)
        #expect(try test.goal("fall-1").isAchieved)
        #expect(try test.store.search("canyon").activities.isEmpty)
    }

    @Test func sortOrdersBreakTiesByName() throws {
        let test = try TestStore()
        let tripID = try test.store.addTrip(TripDraft(name: "Sorting", collection: .fallGetaways))
        let same = Date(timeIntervalSince1970: 1_700_000_000)
        let later = same.addingTimeInterval(60)
        let rows: [(String, Bool, Date, Date)] = [
            ("banana", false, same, later), ("Apple", true, same, same), ("cherry", true, later, same), ("Ábaco", false, same, same),
        ]
        try test.store.database.write(author: "test") { connection in
            for (name, isComplete, created, edited) in rows {
                _ = try Rows.insertActivity(tripID: tripID, name: name, isComplete: isComplete,
                                            dateCreated: created, dateEdited: edited, on: connection)
            }
        }
        func names(_ order: ActivitySortOrder) throws -> [String] {
            try test.store.activities(tripID: tripID, sortedBy: order).map(\.name)
        }
        #expect(try names(.title) == ["Ábaco", "Apple", "banana", "cherry"])
        #expect(try names(.dateCreated) == ["cherry", "Ábaco", "Apple", "banana"])
        #expect(try names(.dateEdited) == ["banana", "Ábaco", "Apple", "cherry"])
        #expect(try names(.completed) == ["Apple", "cherry", "Ábaco", "banana"])
    }

    @Test func validationExplainsWhatToFix() throws {
        let test = try TestStore()
        func problem(_ draft: TripDraft) -> ValidationError? {
            do { try test.store.addTrip(draft); return nil } catch { return error as? ValidationError }
        }
        #expect(problem(TripDraft(name: "   ", collection: .summerVibes)) == ValidationError(field: "name", message: "Enter a trip title."))
        #expect(problem(TripDraft(name: String(repeating: "a", count: 201), collection: .summerVibes))
                == ValidationError(field: "name", message: "Keep the title under 200 characters."))
        #expect(problem(TripDraft(name: "Two\nlines", collection: .summerVibes))?.field == "name")
        // One character of 200,000 combining marks is 400 KB: too long, however it is counted.
        #expect(problem(TripDraft(name: "a" + String(repeating: "\u{301}", count: 200_000), collection: .summerVibes))
                == ValidationError(field: "name", message: "Keep the title under 200 characters."))
        #expect(problem(TripDraft(name: String(repeating: "é", count: 200), collection: .summerVibes)) == nil)
        for blank in ["\u{3164}", " \u{3164}\u{3164} ", "\u{115F}\u{1160}", "\u{FFA0}", "\u{2800}"] {
            #expect(problem(TripDraft(name: blank, collection: .summerVibes)) == ValidationError(field: "name", message: "Enter a trip title."))
        }
        #expect(problem(TripDraft(name: "Rome", collection: nil)) == ValidationError(field: "collection", message: "Choose one of the four collections."))
        #expect(problem(TripDraft(name: "Rome", subtitle: String(repeating: "b", count: 300), collection: .summerVibes))?.field == "subtitle")
        #expect(problem(TripDraft(name: String(repeating: "a", count: 200), subtitle: "  ", collection: .summerVibes)) == nil)

        let tripID = try test.store.addTrip(TripDraft(name: "  Rome  ", subtitle: " ", collection: .summerVibes))
        let rome = try #require(try test.store.trip(id: tripID))
        #expect(rome.name == "Rome" && rome.subtitle == nil)
        #expect(throws: ValidationError(field: "name", message: "Enter an activity name.")) {
            try test.store.addActivity(tripID: tripID, name: "\t")
        }
        #expect(try test.count("SELECT count(*) FROM Trip") == 15)
    }

    @Test func invisibleAndTextDirectionCharactersAreRefused() throws {
        let test = try TestStore()
        let message = "Remove invisible and text-direction characters (such as U+202E or U+200B) from the title."
        for name in ["invoice\u{202E}fdp.exe", "Ro\u{2060}me", "\u{FEFF}Rome", "Ro\u{200B}me", "Rome\u{2028}Paris", "Rome\u{E0041}"] {
            #expect(throws: ValidationError(field: "name", message: message)) {
                try test.store.addTrip(TripDraft(name: name, collection: .summerVibes))
            }
        }
        let tripID = try test.store.addTrip(TripDraft(name: "Family 👨\u{200D}👩\u{200D}👧 in Tehran\u{200C}", collection: .summerVibes))
        #expect(throws: ValidationError.self) { try test.store.addActivity(tripID: tripID, name: "Swim\u{202D}") }
    }

    /// A name holding U+FFFE or U+FFFF broke every GPX and KML download of all trips.
    @Test func noncharactersAreRefusedEveryWayIn() throws {
        let test = try TestStore()
        let message = "Remove the characters that are not text (such as U+FFFF) from the title."
        // Swift's literals refuse U+FDD0, so it is made from its number.
        for name in ["Rome\u{FFFE}", "Ro\u{FFFF}me", "Rome \(Character(Unicode.Scalar(0xFDD0)!))", "Rome \u{1FFFF}"] {
            #expect(throws: ValidationError(field: "name", message: message)) {
                try test.store.addTrip(TripDraft(name: name, collection: .summerVibes))
            }
        }
        let tripID = try test.store.addTrip(TripDraft(name: "Rome \u{FFFD}", collection: .summerVibes))
        #expect(throws: ValidationError.self) { try test.store.addActivity(tripID: tripID, name: "Swim\u{FFFF}") }
        #expect(throws: ValidationError.self) {
            try test.store.updateTrip(id: tripID, draft: TripDraft(name: "Rome", subtitle: "Sea\u{FFFE}", collection: .summerVibes))
        }
    }

    @Test func unknownIDsAreReportedAsNotFound() throws {
        let test = try TestStore()
        #expect(throws: WishlistError.notFound(entity: "trip", id: 999)) { try test.store.deleteTrip(id: 999) }
        #expect(throws: WishlistError.notFound(entity: "trip", id: 999)) { try test.store.addActivity(tripID: 999, name: "Swim") }
        #expect(throws: WishlistError.notFound(entity: "trip", id: 999)) {
            try test.store.updateTrip(id: 999, draft: TripDraft(name: "Nowhere", collection: .fallGetaways))
        }
        #expect(throws: WishlistError.notFound(entity: "activity", id: 999)) { try test.store.setActivityComplete(id: 999, true) }
        #expect(throws: WishlistError.notFound(entity: "activity", id: 999)) { try test.store.renameActivity(id: 999, name: "Swim") }
        #expect(throws: WishlistError.notFound(entity: "activity", id: 999)) { try test.store.deleteActivity(id: 999) }
        #expect(WishlistError.notFound(entity: "trip", id: 7).description == "There is no trip with id 7; it may have been deleted.")
    }

    @Test func collectionTripCountsFollowAddsMovesAndDeletes() throws {
        let test = try TestStore()
        func counts() throws -> [Int] { try TripCollection.allCases.map { try test.store.tripCount(in: $0) } }
        #expect(try counts() == [3, 3, 3, 3])  // the sample trips

        let tripID = try test.store.addTrip(TripDraft(name: "Oslo", collection: .winterRetreats))
        #expect(try counts() == [3, 3, 3, 4])
        try test.store.updateTrip(id: tripID, draft: TripDraft(name: "Oslo", collection: .springEscapes))
        #expect(try counts() == [4, 3, 3, 3])
        try test.store.deleteTrip(id: tripID)
        try test.deleteAllTrips()
        #expect(try counts() == [0, 0, 0, 0])
    }
}
