/// The twelve trips a new wishlist starts with, oldest first.
struct SampleTrip: Sendable {
    let name: String
    let collection: TripCollection
    /// Activity names with whether they are already done.
    let activities: [(name: String, isComplete: Bool)]
}

enum SampleTrips {
    static let all: [SampleTrip] = [
        SampleTrip(name: "Cali Coastal Trails", collection: .springEscapes, activities: [
            ("Hike Swallow's Point Trail", false),
            ("Photograph the cypress tree tunnel", false),
            ("Hike the cliffs of Big Sur", true),
            ("Explore Laguna Beach tide pools", false),
            ("Bike the Monterey Bay Trail", false),
            ("See the elk herd at Point Reyes", true),
        ]),
        SampleTrip(name: "Surf Steamer Lane", collection: .summerVibes, activities: [
            ("Surf at Pleasure Point", false),
            ("Watch the pros at Steamer Lane", false),
            ("Practice for Steamer Lane", false),
        ]),
        SampleTrip(name: "Japan Mystique", collection: .springEscapes, activities: [
            ("Walk the canal paths at sunrise", false),
            ("Visit the hillside wooden temples", false),
            ("Get Matcha soft serve in Gion", false),
        ]),
        SampleTrip(name: "Mont Blanc Powder", collection: .springEscapes, activities: [
            ("Snowboarding in a t-shirt", false),
            ("Snowshoe hike", false),
        ]),
        SampleTrip(name: "Braving the Narrows", collection: .fallGetaways, activities: [
            ("Hike the river canyon from the bottom up", true),
            ("Stargazing near the canyon campgrounds", true),
        ]),
        SampleTrip(name: "Into the Green", collection: .fallGetaways, activities: [
            ("Cliff jump!", false),
            ("Snorkel through caves with stalactites", false),
            ("Hop on a bike and explore the jungle", false),
        ]),
        SampleTrip(name: "Angkor Temple Run", collection: .winterRetreats, activities: [
            ("Watch the sunrise over the temple lotus ponds", true),
            ("Hike through the jungle temples", true),
            ("Browse the night markets", true),
            ("Hop on a tuk-tuk tour", false),
            ("Take a scenic balloon ride", false),
        ]),
        SampleTrip(name: "Hike Joshua Tree", collection: .winterRetreats, activities: [
            ("Hike Warren Peak", false),
            ("Climb those huge boulder formations!", false),
            ("Sound bath meditation in the desert", false),
        ]),
        SampleTrip(name: "Hunting Auroras", collection: .winterRetreats, activities: [
            ("Relax in a lagoon in the snowy lava fields", false),
            ("Take a tour to hunt the lights!", false),
            ("Walk behind the Seljalandsfoss waterfall", false),
        ]),
        SampleTrip(name: "Kona Deep Dive", collection: .summerVibes, activities: [
            ("Snorkel through the lava tubes", false),
            ("Spot migrating humpback whales", false),
            ("Night snorkel with manta rays", false),
        ]),
        SampleTrip(name: "Desert Off-Road", collection: .fallGetaways, activities: [
            ("Buggy ride across the ridges", true),
            ("Sandboard", true),
        ]),
        SampleTrip(name: "Maui Rainforest", collection: .summerVibes, activities: [
            ("Descend a waterfall", false),
            ("Relax in the volcanic hot springs", false),
        ]),
    ]
}
