import HTTPServer
import Mustache
import WishlistCore

/// The Goals tab (`/goals`): achieved badges first, newest first; then the next milestones.
struct GoalsPage {
    let app: WishlistApp

    func register(on router: inout Router) {
        router.get("/goals") { request in try app.pages.cached(request) { try render(request) } }
    }

    func render(_ request: Request) throws -> SharedResponse {
        let live = app.live.subscription([LiveTopicName.achievedGoals, LiveTopicName.upcomingGoals])
        var context = Self.achievedContext(try app.store.achievedGoals())
        context.merge(Self.upcomingContext(try app.store.upcomingGoals())) { $1 }
        return try app.pages.render("goals", for: request, tab: .goals, live: live, context)
    }

    static func achievedContext(_ goals: [Goal]) -> [String: MustacheValue] {
        ["hasAchieved": .bool(!goals.isEmpty), "achieved": .array(goals.map { goal in
            var tile = common(goal)
            tile["achievedSubtitle"] = .string(goal.achievedSubtitle)
            if let date = goal.dateAchieved {
                tile["dateAchievedISO"] = .string(date.ISO8601Format())
                tile["dateAchievedText"] = .string("Earned \(date.longDateText)")
            }
            return .object(tile)
        })]
    }

    static func upcomingContext(_ goals: [Goal]) -> [String: MustacheValue] {
        ["hasUpcoming": .bool(!goals.isEmpty), "upcoming": .array(goals.map { goal in
            var tile = common(goal)
            tile["completedCount"] = .int(min(goal.completedCount, goal.target))
            tile["target"] = .int(goal.target)
            return .object(tile)
        })]
    }

    private static func common(_ goal: Goal) -> [String: MustacheValue] {
        ["id": .int(Int(goal.id)), "name": .string(goal.name), "badge": .string(goal.badge)]
    }
}
