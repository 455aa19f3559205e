/// The 18 goals every wishlist has, in display order: three for activities, three for trips,
/// and three for each collection. Their badge names match the pictures in Public/images/badges.
struct GoalDefinition: Sendable {
    let name: String
    let kind: GoalKind
    let target: Int
    let badge: String
    let achievedSubtitle: String
}

enum GoalCatalog {
    static let targets = (activities: [1, 5, 10], trips: [1, 3, 5])

    static let all: [GoalDefinition] =
        targets.activities.map { target in
            GoalDefinition(name: target == 1 ? "First Activity" : "\(target) Activities",
                           kind: .activities, target: target, badge: "activities-\(target)",
                           achievedSubtitle: earned("your \(ordinal(target)) trip activity"))
        }
        + targets.trips.map { target in
            GoalDefinition(name: target == 1 ? "First Trip" : "\(target) Trips",
                           kind: .trips, target: target, badge: "trips-\(target)",
                           achievedSubtitle: earned("your \(ordinal(target)) trip in your Wishlist"))
        }
        + TripCollection.allCases.flatMap { collection in
            targets.trips.map { target in
                let season = collection.season
                let capitalized = season.prefix(1).uppercased() + season.dropFirst()
                return GoalDefinition(name: target == 1 ? "\(capitalized) Explorer" : "\(target) \(capitalized) Trips",
                                      kind: .collectionTrips(collection), target: target, badge: "\(season)-\(target)",
                                      achievedSubtitle: earned("your \(ordinal(target)) \(season) trip"))
            }
        }

    private static func earned(_ achievement: String) -> String {
        "You earned this award for completing \(achievement)."
    }

    /// "first" for 1, otherwise "3rd", "5th", "10th" (the targets in use).
    static func ordinal(_ number: Int) -> String {
        if number == 1 { return "first" }
        let suffix = switch (number % 10, number % 100) {
        case (_, 11...13): "th"
        case (1, _): "st"
        case (2, _): "nd"
        case (3, _): "rd"
        default: "th"
        }
        return "\(number)\(suffix)"
    }
}
