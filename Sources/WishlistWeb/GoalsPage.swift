import HTTPServer
import Mustache
import WishlistCore

/// The Goals tab (`/goals`): achieved badges first, newest first; then the next milestones.
struct GoalsPage {
    let app: WishlistApp

    func register(on router: inout Router) {
        router.page("/goals") { request in try app.pages.cached(request, read: Self.read, draw: { try draw(request, $0) }) }
    }

    /// The achieved goals and the upcoming ones, read in one snapshot.
    static func read(_ snapshot: WishlistSnapshot) throws -> (FragmentRead<AchievedGoalsFragment>, FragmentRead<UpcomingGoalsFragment>) {
        (try AchievedGoalsFragment().read(in: snapshot), try UpcomingGoalsFragment().read(in: snapshot))
    }

    func draw(_ request: Request, _ goals: (achieved: FragmentRead<AchievedGoalsFragment>, upcoming: FragmentRead<UpcomingGoalsFragment>))
        throws -> SharedResponse {
        var fragments = app.pages.fragmentPlaces()
        let context = ["achieved": try fragments.place(goals.achieved), "upcoming": try fragments.place(goals.upcoming)]
        return try app.pages.render("goals", for: request, tab: .goals, liveTopics: [goals.achieved.fragment.topic, goals.upcoming.fragment.topic],
                                    fragments: fragments, context)
    }
}

/// Badges earned, the most recently earned first.
struct AchievedGoalsFragment: Fragment {
    var topic: LiveTopic { .achievedGoals }
    var query: WishlistQuery<[Goal]> { .achievedGoals }
    func view(_ goals: [Goal]) -> AchievedGoalsView? { AchievedGoalsView(goals: goals) }
}

struct AchievedGoalsView: FragmentView {
    static let partial = "partials/goals-achieved"
    let goals: [Goal]
    var elementID: String { "goals-achieved" }

    var mustacheValue: MustacheValue {
        object(["hasAchieved": .bool(!goals.isEmpty), "achieved": .array(goals.map { goal in
            var tile = GoalTile.fields(goal)
            tile["achievedSubtitle"] = .string(goal.achievedSubtitle)
            if let date = goal.dateAchieved {
                tile["dateAchievedISO"] = .string(date.ISO8601Format())
                tile["dateAchievedText"] = .string("Earned \(date.longDateText)")
            }
            return .object(tile)
        })])
    }
}

/// Goals still to reach, in display order, with their progress.
struct UpcomingGoalsFragment: Fragment {
    var topic: LiveTopic { .upcomingGoals }
    var query: WishlistQuery<[Goal]> { .upcomingGoals }
    func view(_ goals: [Goal]) -> UpcomingGoalsView? { UpcomingGoalsView(goals: goals) }
}

struct UpcomingGoalsView: FragmentView {
    static let partial = "partials/goals-upcoming"
    let goals: [Goal]
    var elementID: String { "goals-upcoming" }

    var mustacheValue: MustacheValue {
        object(["hasUpcoming": .bool(!goals.isEmpty), "upcoming": .array(goals.map { goal in
            var tile = GoalTile.fields(goal)
            tile["completedCount"] = .int(min(goal.completedCount, goal.target))
            tile["target"] = .int(goal.target)
            return .object(tile)
        })])
    }
}

/// What every goal's tile shows, achieved or not.
private enum GoalTile {
    static func fields(_ goal: Goal) -> [String: MustacheValue] {
        ["id": .int(Int(goal.id)), "name": .string(goal.name), "badge": .string(goal.badge)]
    }
}
