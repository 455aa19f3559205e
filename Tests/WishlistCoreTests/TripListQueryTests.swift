import Foundation
import Persistence
import Places
import Testing
import TestSupport
@testable import WishlistCore

/// The Trips tab's two views and the map's pins over the seeded trips (12, all with a place
/// and dates; two in Santa Cruz).
@Suite struct TripListQueryTests {
    static let santaCruz = "Santa Cruz, California, United States of America"

    @Test func destinationSectionsHoldTheirTripsByStartDateWithACount() throws {
        let test = try TestStore()
        let page = try test.store.fetch(.tripsByDestination(after: nil, sectionLimit: 50, tripsPerSection: 10))
        #expect(page.sections.count == 11)
        #expect(page.sections.reduce(0) { $0 + $1.count } == 12)
        let santaCruz = try #require(page.sections.first { $0.key == .text(Self.santaCruz) })
        #expect(santaCruz.count == 2)
        #expect(santaCruz.records.map(\.startDate) == [CalendarDate("2027-04-10"), CalendarDate("2027-07-03")])
        let names = page.sections.compactMap { if case .text(let name) = $0.key { name } else { nil } }
        #expect(names == names.sorted())
        #expect(!page.hasMore)
    }

    @Test func tripsWithoutADestinationCloseTheLastPageAndUndatedTripsCloseTheirSection() throws {
        let test = try TestStore()
        let nowhere = try test.store.addTrip(TripDraft(name: "Somewhere", collection: .summerVibes))
        let undated = try test.store.addTrip(TripDraft(name: "Some day", collection: .summerVibes,
                                                       destination: TripDestination(name: Self.santaCruz)))
        let first = try test.store.fetch(.tripsByDestination(after: nil, sectionLimit: 6, tripsPerSection: 10))
        #expect(first.sections.count == 6 && first.hasMore)
        guard case .text(let last) = first.sections.last?.key else { throw TestFailure("no key") }
        let second = try test.store.fetch(.tripsByDestination(after: last, sectionLimit: 6, tripsPerSection: 10))
        #expect(second.sections.count == 6 && !second.hasMore)
        #expect(second.sections.last?.key == .null)
        #expect(second.sections.last?.records.map(\.id) == [nowhere])
        let santaCruz = try #require((first.sections + second.sections).first { $0.key == .text(Self.santaCruz) })
        #expect(santaCruz.records.last?.id == undated && santaCruz.count == 3)
    }

    @Test func everyTripByStartDateWithUndatedTripsLast() throws {
        let test = try TestStore()
        let undated = try test.store.addTrip(TripDraft(name: "Some day", collection: .summerVibes))
        let pages = try (1...3).map { try test.store.fetch(.tripsByStartDate(pageNumber: $0, pageSize: 5)) }
        #expect(pages.map(\.trips.count) == [5, 5, 3])
        #expect(pages.allSatisfy { $0.tripCount == 13 && $0.pageCount == 3 })
        let trips = pages.flatMap(\.trips)
        #expect(trips.last?.id == undated)
        let dates = trips.dropLast().compactMap(\.startDate)
        #expect(dates.count == 12 && dates == dates.sorted())
        // Out of range: the nearest page.
        #expect(try test.store.fetch(.tripsByStartDate(pageNumber: 9, pageSize: 5)).pageNumber == 3)
    }

    @Test func theMapHasAPinPerTripUpToTheLimitThenOnePerPosition() throws {
        let test = try TestStore()
        let pins = try test.store.fetch(.tripPositions)
        #expect(pins.count == 12)
        #expect(pins.allSatisfy { $0.tripCount == 1 && $0.coordinate.isValid })
        #expect(pins.filter { $0.destination == Self.santaCruz }.count == 2)

        // Past the limit, more trips at the seeded Kyoto's position.
        let kyoto = try #require(pins.first { $0.destination == "Kyoto, Japan" }).coordinate
        try Self.addKyotoTrips(MapQueries.tripPinLimit, at: kyoto, to: test)
        let grouped = try test.store.fetch(.tripPositions)
        // 12 trips at 11 positions: the two Santa Cruz trips share one.
        #expect(grouped.count == 11)
        #expect(grouped.first?.destination == "Kyoto, Japan")
        #expect(grouped.first?.tripCount == MapQueries.tripPinLimit + 1)
        #expect(grouped.first { $0.destination == Self.santaCruz }?.tripCount == 2)
    }

    @Test func everyTripOfAScopeWithAPositionOnItsOwnEvenPastThePinLimit() throws {
        let test = try TestStore()
        let every = try test.store.fetch(.tripPositions(in: .all))
        #expect(every == (try test.store.fetch(.tripPositions)), "the map's pins up to the limit")
        let spring = try test.store.fetch(.tripPositions(in: .collection(.springEscapes)))
        let springTrips = try test.store.trips(in: .springEscapes)
        #expect(Set(spring.map(\.tripID)) == Set(springTrips.filter { $0.destination?.coordinate != nil }.map(\.id)))
        #expect(spring.count > 1 && spring.count < every.count)

        let kyoto = try #require(every.first { $0.destination == "Kyoto, Japan" })
        #expect(try test.store.fetch(.tripPositions(in: .trip(kyoto.tripID))) == [kyoto])
        let nowhere = try test.store.addTrip(TripDraft(name: "Somewhere", collection: .springEscapes))
        #expect(try test.store.fetch(.tripPositions(in: .trip(nowhere))).isEmpty)
        #expect(throws: WishlistError.notFound(entity: "trip", id: 9999)) { try test.store.fetch(.tripPositions(in: .trip(9999))) }

        try Self.addKyotoTrips(MapQueries.tripPinLimit, at: kyoto.coordinate, to: test)
        #expect(try test.store.fetch(.tripPositions(in: .all)).count == 12 + MapQueries.tripPinLimit)
        #expect(try test.store.fetch(.tripPositions(in: .all)).allSatisfy { $0.tripCount == 1 })
        #expect(try test.store.fetch(.tripPositions(in: .collection(.springEscapes))).count == spring.count + MapQueries.tripPinLimit)
    }

    /// `count` more Spring Escapes at `position`, written straight into the table (fast).
    static func addKyotoTrips(_ count: Int, at position: Coordinate, to test: TestStore) throws {
        try test.store.database.write(author: "test") { db in
            try db.execute("""
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                INSERT INTO Trip(name, name_folded, collection, creation_date, destination, latitude, longitude)
                SELECT 'Kyoto ' || i, 'kyoto ' || i, 'springEscapes', 0, 'Kyoto, Japan', ?, ? FROM n
                """, [count, position.latitude, position.longitude])
        }
    }
}
