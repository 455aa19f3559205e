/// Counts the committed history transactions that match an author and entity filter, e.g. to
/// tell a page "something you watch changed" without knowing what.
public final class HistoryObserver: Sendable {
    private struct Progress: Sendable {
        var eventCount = 0
        var lastToken: Int64
    }

    private let progress: SharedState<Progress>
    private let subscribers = SubscriberList<(Int, Int64)>()
    private let commitSubscription: ObservationCancellable

    /// Counts from now on; `.any` and a nil `entities` match everything.
    public init(database: Database, authors: AuthorFilter = .any, entities: Set<String>? = nil) throws {
        let progress = SharedState(Progress(lastToken: try database.latestHistoryToken()))
        let subscribers = subscribers
        self.progress = progress
        commitSubscription = database.observeCommits { [weak database] commit in
            guard let database else { return }
            let lastToken = progress.withLock(\.lastToken)
            guard let (matches, newestToken) = try? database.read({ connection in
                try HistoryStore.count(after: lastToken, authors: authors, entities: entities, on: connection)
            }) else { return }
            let counted: (Int, Int64)? = progress.withLock { progress in
                progress.lastToken = max(progress.lastToken, newestToken, commit.token)
                guard matches > 0 else { return nil }
                progress.eventCount += matches
                return (progress.eventCount, progress.lastToken)
            }
            if let counted { subscribers.send(counted) }
        }
    }

    /// How many matching transactions were committed since this observer was created.
    public var eventCount: Int {
        progress.withLock(\.eventCount)
    }

    /// Calls `onEvent` with the new event count and the latest history token.
    public func subscribe(_ onEvent: @escaping @Sendable (Int, Int64) -> Void) -> ObservationCancellable {
        subscribers.add { count, token in onEvent(count, token) }
    }
}
