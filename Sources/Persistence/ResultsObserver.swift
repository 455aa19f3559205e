/// Keeps the result of a query up to date. Each fetch records the region its statements read
/// (it may change with the values, e.g. a fetch that branches); after each commit that touched
/// that region, the fetch runs again on a reader, and subscribers hear of the new read only when
/// its value differs. Notifications arrive on the database's notification queue, after the
/// commit, in commit order.
public final class ResultsObserver<Value: Equatable & Sendable>: Sendable {
    private let latest: SharedState<TrackedRead<Value>?>
    private let subscribers = SubscriberList<(TrackedRead<Value>, Int64)>()
    private let commitSubscription: ObservationCancellable

    /// Runs `fetch` once now (its errors are thrown here) and after every relevant commit.
    public init(database: Database, fetch: @escaping @Sendable (Connection) throws -> Value) throws {
        let latest = SharedState<TrackedRead<Value>?>(nil)
        let subscribers = subscribers
        self.latest = latest
        // Subscribing before the first fetch leaves no gap where a commit could go unseen; until
        // that fetch has told its region, any commit may matter.
        commitSubscription = database.observeCommits { [weak database] commit in
            guard commit.touches(latest.withLock { $0?.region ?? .fullDatabase }), let database,
                  // A failed re-fetch (e.g. the database is closing) keeps the last value.
                  let fetched = try? database.readTracking(fetch)
            else { return }
            let changed = latest.withLock { current in
                defer { current = fetched }
                return current?.value != fetched.value
            }
            if changed { subscribers.send((fetched, commit.token)) }
        }
        let initial = try database.readTracking(fetch)
        // A commit may have been observed meanwhile; its value is newer than `initial`.
        latest.withLock { current in
            if current == nil { current = initial }
        }
    }

    /// The latest fetched value.
    public var value: Value {
        latest.withLock { $0!.value }
    }

    /// What the latest fetch read: the commits that make it run again.
    public var region: DatabaseRegion {
        latest.withLock { $0!.region }
    }

    /// Calls `onChange` with each new read and the history token of the commit that produced it.
    public func subscribe(_ onChange: @escaping @Sendable (TrackedRead<Value>, Int64) -> Void) -> ObservationCancellable {
        subscribers.add { read, token in onChange(read, token) }
    }
}

extension ResultsObserver {
    /// Observes the records a descriptor selects.
    public convenience init<Record: FetchableRecord & Equatable & Sendable>(
        database: Database, descriptor: FetchDescriptor
    ) throws where Value == [Record] {
        try self.init(database: database) { connection in
            try connection.fetchAll(Record.self, descriptor)
        }
    }

    /// Observes the records a descriptor selects, grouped by its `sectionKey` column.
    public convenience init<Record: FetchableRecord & Equatable & Sendable>(
        database: Database, sectionedDescriptor descriptor: FetchDescriptor
    ) throws where Value == [RecordSection<Record>] {
        try self.init(database: database) { connection in
            try connection.fetchSections(Record.self, descriptor)
        }
    }
}
