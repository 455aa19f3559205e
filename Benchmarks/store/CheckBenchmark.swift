import Foundation
import Persistence
import WishlistCore

/// Checking and unchecking an activity (`WishlistStore.setActivityComplete`: the update, the
/// trip's completion, the goal counters, the history row, a durable commit) against the
/// reference of a write transaction that only touches the activity's edit date (no trigger
/// fires: the cost of a durable commit with history alone).
struct CheckBenchmark {
    let store: WishlistStore
    let iterations: Int

    func run() throws {
        let activityCount = try store.database.read { try $0.fetchScalar(Int.self, "SELECT count(*) FROM Activity") } ?? 0
        guard activityCount > 0 else { throw CheckBenchmarkError.noActivities }
        // Spread over the table, deterministic: a large odd stride visits distinct rows.
        let ids = try store.database.read { connection in
            try connection.fetchAll("SELECT id, is_complete FROM Activity WHERE id % 7919 = 1 LIMIT ?", [iterations])
        }
        var state = try ids.map { (id: try $0.decode(at: 0, as: Int64.self), isComplete: try $0.decode(at: 1, as: Bool.self)) }
        var checks = Samples()
        var touches = Samples()
        let clock = ContinuousClock()
        for index in state.indices {
            let start = clock.now
            try store.setActivityComplete(id: state[index].id, !state[index].isComplete)
            checks.add(start.duration(to: clock.now))
            state[index].isComplete.toggle()

            let referenceStart = clock.now
            try store.database.write(author: "bench") { connection in
                try connection.execute("UPDATE Activity SET date_edited = date_edited + 0.001 WHERE id = ?", [state[index].id])
            }
            touches.add(referenceStart.duration(to: clock.now))
        }
        // Put every activity back as it was, so runs on the same database stay comparable.
        for activity in state {
            try store.setActivityComplete(id: activity.id, !activity.isComplete)
        }
        printRow("check an activity at \(activityCount) activities: median (p99), \(checks.count) runs",
                 "\(format(checks.median)) ms (\(format(checks.p99)))",
                 "\(format(touches.median)) ms (\(format(touches.p99))) (same durable write, no trigger)",
                 ratio(checks.median, touches.median), "< 5 ms median", meets(checks.median < 5))
    }
}

enum CheckBenchmarkError: Error, CustomStringConvertible {
    case noActivities
    var description: String { "the database has no activities; import a sample archive first" }
}
