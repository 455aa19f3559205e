import Dispatch
import Persistence
import Synchronization
import Testing
@testable import WishlistCore

/// Observes a query and counts how often it runs.
final class CountedQuery<Value: Equatable & Sendable>: Sendable {
    private final class Runs: Sendable {
        let count = Mutex(0)
    }

    private let runs = Runs()
    let observer: ResultsObserver<Value>

    init(_ query: WishlistQuery<Value>, on store: WishlistStore) throws {
        let runs = runs
        observer = try store.observe(WishlistQuery { connection in
            runs.count.withLock { $0 += 1 }
            return try query.fetch(connection)
        })
    }

    var runCount: Int { runs.count.withLock { $0 } }
}

/// Live queries re-run only after writes that change the tables and columns their SQL reads,
/// triggers included.
@Suite struct ObservedRegionTests {
    /// Runs `write`, then waits until every observer subscribed before it has handled the commit
    /// (commits reach subscribers one after another, in subscription order).
    private func afterCommit(of store: WishlistStore, _ write: () throws -> Void) throws {
        let handled = DispatchSemaphore(value: 0)
        let subscription = store.database.observeCommits { _ in handled.signal() }
        try write()
        #expect(handled.wait(timeout: .now() + 10) == .success)
        subscription.cancel()
    }

    @Test func writesReRunOnlyTheQueriesWhoseTablesTheyTouch() throws {
        let test = try TestStore()
        let store = test.store
        let trip = try #require(try store.recentTrips(limit: 1).first)
        let activity = try #require(try store.activities(tripID: trip.id, sortedBy: .default).first { !$0.isComplete })

        let carousel = try CountedQuery(.recentTrips(limit: 5), on: store)
        let collectionCount = try CountedQuery(.tripCount(in: trip.collection), on: store)
        let upcomingGoals = try CountedQuery(.upcomingGoals, on: store)
        let checklist = try CountedQuery(.activities(tripID: trip.id, sortedBy: .default), on: store)
        let sortOrder = try CountedQuery(.activitySortOrder, on: store)
        let all: [() -> Int] = [{ carousel.runCount }, { collectionCount.runCount }, { upcomingGoals.runCount },
                                { checklist.runCount }, { sortOrder.runCount }]
        #expect(all.map { $0() } == [1, 1, 1, 1, 1])

        // A rename writes Activity (and the activity search index, through a trigger): not trips or goals.
        try afterCommit(of: store) { try store.renameActivity(id: activity.id, name: activity.name + " again") }
        #expect(all.map { $0() } == [1, 1, 1, 2, 1])

        // A check-off moves the trip's counters and the activity goals through triggers; the
        // count of trips per collection follows only trips added, deleted or moved.
        try afterCommit(of: store) { try store.setActivityComplete(id: activity.id, true) }
        #expect(all.map { $0() } == [2, 1, 2, 3, 1])

        try afterCommit(of: store) { try store.setActivitySortOrder(.completed) }
        #expect(all.map { $0() } == [2, 1, 2, 3, 2])

        // The collection count (kept by triggers in a table commits never name) follows new trips.
        let before = collectionCount.observer.value
        try afterCommit(of: store) {
            _ = try store.addTrip(TripDraft(name: "Counted", subtitle: "", collection: trip.collection))
        }
        #expect(collectionCount.observer.value == before + 1)
    }
}
