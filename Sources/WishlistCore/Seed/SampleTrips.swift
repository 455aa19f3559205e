import Imaging
import Places

/// The twelve trips a new wishlist starts with, oldest first.
struct SampleTrip: Sendable {
    let name: String
    let collection: TripCollection
    /// What its generated photo shows, so each trip has a picture of its own kind.
    let landscape: Landscape
    /// Sky-to-horizon colours of its generated photo, in its season's palette.
    let colors: [RGBColor]
    /// Activity names with whether they are already done.
    let activities: [(name: String, isComplete: Bool)]
    /// Where it goes (a `PlaceSearch` query whose first result is the place) and when.
    var destination: (place: String, start: String, end: String)? = nil

    /// Its fields as stored; a place the gazetteer no longer has leaves the trip without one.
    fileprivate var fields: TripFields {
        let place = destination.flatMap { PlaceSearch.search($0.place, limit: 1).first }
        return TripFields(name: name, subtitle: nil, collection: collection, destination: place.map(TripDestination.init),
                          startDate: destination.flatMap { CalendarDate($0.start) },
                          endDate: destination.flatMap { CalendarDate($0.end) })
    }
}

enum SampleTrips {
    /// Each sample's stored fields, in `all` order, found once per process: each place is a
    /// gazetteer search of ~60 ms, and tests seed hundreds of fresh stores.
    static let fields = all.map(\.fields)

    static let all: [SampleTrip] = [
        SampleTrip(name: "Cali Coastal Trails", collection: .springEscapes,
                   landscape: .coast,
                   colors: [rgb(120, 190, 235), rgb(250, 215, 190), rgb(90, 160, 130)], activities: [
            ("Hike Swallow's Point Trail", false),
            ("Photograph the cypress tree tunnel", false),
            ("Hike the cliffs of Big Sur", true),
            ("Explore Laguna Beach tide pools", false),
            ("Bike the Monterey Bay Trail", false),
            ("See the elk herd at Point Reyes", true),
        ], destination: ("Santa Cruz, California", "2027-04-10", "2027-04-17")),
        SampleTrip(name: "Surf Steamer Lane", collection: .summerVibes,
                   landscape: .surf,
                   colors: [rgb(60, 180, 220), rgb(250, 220, 160), rgb(30, 120, 160)], activities: [
            ("Surf at Pleasure Point", false),
            ("Watch the pros at Steamer Lane", false),
            ("Practice for Steamer Lane", false),
        ], destination: ("Santa Cruz, California", "2027-07-03", "2027-07-10")),
        SampleTrip(name: "Japan Mystique", collection: .springEscapes,
                   landscape: .blossomMountain,
                   colors: [rgb(245, 190, 205), rgb(252, 235, 220), rgb(120, 170, 120)], activities: [
            ("Walk the canal paths at sunrise", false),
            ("Visit the hillside wooden temples", false),
            ("Get Matcha soft serve in Gion", false),
        ], destination: ("Kyoto, Japan", "2027-03-28", "2027-04-06")),
        SampleTrip(name: "Mont Blanc Powder", collection: .springEscapes,
                   landscape: .snowPeak,
                   colors: [rgb(150, 200, 240), rgb(235, 240, 250), rgb(140, 160, 190)], activities: [
            ("Snowboarding in a t-shirt", false),
            ("Snowshoe hike", false),
        ], destination: ("Annecy, France", "2027-03-06", "2027-03-13")),
        SampleTrip(name: "Braving the Narrows", collection: .fallGetaways,
                   landscape: .narrows,
                   colors: [rgb(240, 170, 90), rgb(220, 120, 90), rgb(150, 70, 50)], activities: [
            ("Hike the river canyon from the bottom up", true),
            ("Stargazing near the canyon campgrounds", true),
        ], destination: ("St. George, Utah", "2027-10-09", "2027-10-14")),
        SampleTrip(name: "Into the Green", collection: .fallGetaways,
                   landscape: .rainforest,
                   colors: [rgb(220, 190, 100), rgb(230, 140, 70), rgb(70, 100, 50)], activities: [
            ("Cliff jump!", false),
            ("Snorkel through caves with stalactites", false),
            ("Hop on a bike and explore the jungle", false),
        ], destination: ("San José, Costa Rica", "2027-09-18", "2027-09-28")),
        SampleTrip(name: "Angkor Temple Run", collection: .winterRetreats,
                   landscape: .temple,
                   colors: [rgb(120, 110, 170), rgb(245, 190, 130), rgb(40, 70, 80)], activities: [
            ("Watch the sunrise over the temple lotus ponds", true),
            ("Hike through the jungle temples", true),
            ("Browse the night markets", true),
            ("Hop on a tuk-tuk tour", false),
            ("Take a scenic balloon ride", false),
        ], destination: ("Siem Reap, Cambodia", "2027-12-27", "2028-01-03")),
        SampleTrip(name: "Hike Joshua Tree", collection: .winterRetreats,
                   landscape: .desert,
                   colors: [rgb(170, 200, 230), rgb(210, 190, 220), rgb(120, 100, 130)], activities: [
            ("Hike Warren Peak", false),
            ("Climb those huge boulder formations!", false),
            ("Sound bath meditation in the desert", false),
        ], destination: ("Twentynine Palms, California", "2028-01-15", "2028-01-18")),
        SampleTrip(name: "Hunting Auroras", collection: .winterRetreats,
                   landscape: .aurora,
                   colors: [rgb(20, 30, 70), rgb(70, 200, 150), rgb(60, 80, 110)], activities: [
            ("Relax in a lagoon in the snowy lava fields", false),
            ("Take a tour to hunt the lights!", false),
            ("Walk behind the Seljalandsfoss waterfall", false),
        ], destination: ("Tromsø, Norway", "2028-02-05", "2028-02-12")),
        SampleTrip(name: "Kona Deep Dive", collection: .summerVibes,
                   landscape: .reef,
                   colors: [rgb(40, 110, 190), rgb(255, 210, 120), rgb(20, 110, 120)], activities: [
            ("Snorkel through the lava tubes", false),
            ("Spot migrating humpback whales", false),
            ("Night snorkel with manta rays", false),
        ], destination: ("Hilo, Hawaii", "2027-06-12", "2027-06-20")),
        SampleTrip(name: "Desert Off-Road", collection: .fallGetaways,
                   landscape: .dunes,
                   colors: [rgb(245, 180, 110), rgb(235, 150, 120), rgb(160, 100, 60)], activities: [
            ("Buggy ride across the ridges", true),
            ("Sandboard", true),
        ], destination: ("Dubai, United Arab Emirates", "2027-11-06", "2027-11-11")),
        SampleTrip(name: "Maui Rainforest", collection: .summerVibes,
                   landscape: .waterfall,
                   colors: [rgb(90, 190, 230), rgb(255, 180, 140), rgb(40, 130, 80)], activities: [
            ("Descend a waterfall", false),
            ("Relax in the volcanic hot springs", false),
        ], destination: ("Kahului, Hawaii", "2027-08-14", "2027-08-22")),
    ]
}

private func rgb(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> RGBColor {
    RGBColor(red: red, green: green, blue: blue)
}
