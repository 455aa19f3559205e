import Foundation
import Imaging
import Places

/// Large, deterministic wishlists for benchmarks and load tests, written as archives that
/// `wishlist import` (or `WishlistArchive.import`) loads.
public enum SampleData {
    /// Writes an archive of `trips` trips with `activitiesPerTrip` activities each. The same
    /// seed always gives the same file. Names mix a few hundred places and themes (some with
    /// accents), so searches find anything from a handful to thousands of matches. Four trips in
    /// five go to their name's place (found in the gazetteer when it has it, else as text) on
    /// dates in 2027–2028, so the Trips tab's sections and the map have the scale of the rest.
    public static func largeArchive(trips: Int, activitiesPerTrip: Int, seed: UInt64, to url: URL) throws {
        var random = SplitMix64(seed: seed)
        // Travel plans draw from their own stream, so names stay those of earlier versions (and
        // the search benchmarks comparable).
        var plans = SplitMix64(seed: seed ^ 0x7472_6176_656c)
        let start = Date(timeIntervalSince1970: 1_704_067_200)  // 2024-01-01
        let writer = try ArchiveWriter(url: url, exportedAt: start, preferences: ArchivePreferences(), goals: [])
        let destinations = Dictionary(uniqueKeysWithValues: Vocabulary.places.map { name in
            (name, PlaceSearch.search(name, limit: 1).first.map(TripDestination.init) ?? TripDestination(name: name))
        })
        for index in 0..<trips {
            let creationDate = start.addingTimeInterval(Double(index) * 97)
            let place = random.pick(Vocabulary.places)
            let activities = (0..<activitiesPerTrip).map { offset in
                let created = creationDate.addingTimeInterval(Double(offset) * 60)
                return ArchiveActivity(
                    name: "\(random.pick(Vocabulary.verbs)) \(random.pick(Vocabulary.sights)) in \(random.pick(Vocabulary.places))",
                    isComplete: random.next() % 3 == 0,
                    dateCreated: created,
                    dateEdited: created.addingTimeInterval(Double(random.next() % 604_800)))
            }
            let travels = plans.next() % 5 != 0
            let firstDay = CalendarDate(year: 2027 + Int(plans.next() % 2), month: 1 + Int(plans.next() % 12), day: 1 + Int(plans.next() % 28))
            let lastDay = firstDay.flatMap { CalendarDate(year: $0.year, month: $0.month, day: min(28, $0.day + Int(plans.next() % 10))) }
            try writer.write(ArchiveTrip(name: "\(place) \(random.pick(Vocabulary.themes))", subtitle: nil,
                                         collection: random.pick(TripCollection.allCases),
                                         creationDate: creationDate, activities: activities,
                                         destination: travels ? destinations[place] : nil,
                                         startDate: travels ? firstDay : nil, endDate: travels ? lastDay : nil))
        }
        try writer.finish()
    }
}

extension SplitMix64 {
    mutating func pick<T>(_ choices: [T]) -> T {
        choices[Int(next() % UInt64(choices.count))]
    }
}

private enum Vocabulary {
    static let places = [
        "Kyoto", "Lisbon", "Reykjavík", "Zürich", "São Paulo", "Montréal", "Kraków", "Cádiz", "Málaga", "Nîmes",
        "Chiang Mai", "Patagonia", "Big Sur", "Banff", "Tasmania", "Zanzibar", "Hokkaido", "Dolomites", "Crete",
        "Oaxaca", "Marrakesh", "Tromsø", "Queenstown", "Yosemite", "Bali", "Cusco", "Cape Town", "Sapporo",
        "Hanoi", "Porto", "Sevilla", "Göreme", "Bergen", "Lofoten", "Sintra", "Valparaíso", "Kauai", "Maui",
        "Santorini", "Amalfi", "Provence", "Bordeaux", "Asheville", "Sedona", "Moab", "Zion", "Tulum", "Mérida",
        "Hallstatt", "Bled", "Ljubljana", "Tbilisi", "Luang Prabang", "Kerala", "Ubud", "Fiordland", "Galápagos",
        "Cartagena", "Jasper", "Acadia",
    ]
    static let themes = [
        "Food Tour", "Road Trip", "Hiking Loop", "Island Hop", "City Break", "Ski Week", "Surf Camp", "Wine Route",
        "Photo Walk", "Rail Journey", "Café Crawl", "Night Markets", "Hot Springs", "Canoe Trip", "Stargazing",
        "Bike Tour", "Temple Trail", "Coastal Drive", "Snow Escape", "Sunset Sail",
    ]
    static let verbs = [
        "Hike", "Visit", "Photograph", "Taste", "Explore", "Kayak", "Bike", "Watch", "Climb", "Swim", "Sketch",
        "Find", "Tour", "Walk", "Sail",
    ]
    static let sights = [
        "the old town", "the night market", "the waterfall", "the cathedral", "the sunrise", "the harbor",
        "the local cafés", "the botanical garden", "the lighthouse", "the hot springs", "the castle ruins",
        "the street food stalls", "the glacier", "the tide pools", "the vineyards", "the river canyon",
        "the hidden beach", "the museum of crêpes", "the flower fields", "the mountain hut", "the jazz bars",
        "the lava fields", "the bamboo forest", "the city walls", "the fish market",
    ]
}
