import Places
import Testing

@Suite struct PlaceSearchTests {
    @Test func findsACityByItsNameWithItsCountryAndPosition() throws {
        let kyoto = try #require(PlaceSearch.search("kyoto").first)
        #expect(kyoto.label == "Kyoto, Japan")
        #expect(kyoto.countryCode == "JP")
        #expect(abs(kyoto.coordinate.latitude - 35.02) < 0.1 && abs(kyoto.coordinate.longitude - 135.75) < 0.1)
    }

    @Test func foldsAccentsAndCaseOfTheQuery() {
        #expect(PlaceSearch.search("tromso").first?.name == "Tromsø")
        #expect(PlaceSearch.search("ZÜRICH").first?.name == "Zurich")
    }

    @Test func textAfterACommaNarrowsByRegionOrCountry() {
        #expect(PlaceSearch.search("san jose").first?.countryCode == "US")
        #expect(PlaceSearch.search("san jose, costa rica").first?.countryCode == "CR")
        #expect(PlaceSearch.search("santa cruz, california").first?.region == "California")
    }

    @Test func answersAtMostTheLimitMostPopulousFirst() {
        let places = PlaceSearch.search("san", limit: 5)
        #expect(places.count == 5)
        #expect(places.map(\.population) == places.map(\.population).sorted(by: >))
        #expect(PlaceSearch.search("   ").isEmpty)
        #expect(PlaceSearch.search("qxzqxz").isEmpty)
    }

    @Test func anIdentifierFindsItsPlaceAgainEvenWhenItsIndexIsStale() throws {
        let kyoto = try #require(PlaceSearch.search("kyoto").first)
        #expect(PlaceSearch.place(for: kyoto.identifier) == kyoto)
        var moved = kyoto.identifier
        moved.index = 0
        #expect(PlaceSearch.place(for: moved)?.coordinate == kyoto.coordinate)
        moved.index = nil
        #expect(PlaceSearch.place(for: moved)?.label == "Kyoto, Japan")
        #expect(PlaceSearch.place(for: PlaceIdentifier(source: "elsewhere", index: 1, name: "Kyoto", countryCode: nil)) == nil)
    }
}
