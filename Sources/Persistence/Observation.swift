import Dispatch
import Synchronization

/// What a committed transaction touched, delivered to observers after the commit.
public struct DatabaseCommit: Sendable, Equatable {
    /// The history token after this commit.
    public let token: Int64
    /// What this process' writer changed. Empty for an external change.
    public let changes: TableChanges
    /// The rows (by rowid) of the tracked tables of `changes` that changed.
    public let changedRows: [String: [Int64]]
    /// True when another connection (another process) committed: which tables changed is unknown.
    public let isExternal: Bool

    public init(token: Int64, changes: TableChanges, changedRows: [String: [Int64]] = [:], isExternal: Bool) {
        self.token = token
        self.changes = changes
        self.changedRows = changedRows
        self.isExternal = isExternal
    }

    /// The tables changed by this process' writer.
    public var tables: Set<String> { changes.tables }

    /// Whether this commit may have changed what `region` reads (tracked tables, see
    /// `Database.hasChanges(in:after:)`).
    public func touches(_ region: DatabaseRegion) -> Bool {
        isExternal || region.intersects(changes, changedRows: changedRows)
    }
}

/// Ends a subscription when cancelled or released.
public final class ObservationCancellable: Sendable {
    private let onCancel: Mutex<(@Sendable () -> Void)?>

    init(_ onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = Mutex(onCancel)
    }

    public func cancel() {
        onCancel.withLock { action in
            let pending = action
            action = nil
            return pending
        }?()
    }

    deinit { cancel() }
}

/// A set of callbacks that can be added and removed from any thread.
final class SubscriberList<Argument: Sendable>: Sendable {
    typealias Callback = @Sendable (Argument) -> Void
    private let state = Mutex<(nextID: Int, callbacks: [Int: Callback])>((0, [:]))

    func add(_ callback: @escaping Callback) -> ObservationCancellable {
        let id = state.withLock { state in
            state.nextID += 1
            state.callbacks[state.nextID] = callback
            return state.nextID
        }
        return ObservationCancellable { [weak self] in
            _ = self?.state.withLock { $0.callbacks.removeValue(forKey: id) }
        }
    }

    /// The mark of the newest subscription, for `send(_:subscribedUpTo:)`.
    var latestSubscription: Int {
        state.withLock(\.nextID)
    }

    /// Calls the callbacks outside the lock, in subscription order, so a callback may unsubscribe.
    /// With `subscribedUpTo`, only those subscribed by then are called: an event delivered later
    /// (through a queue) never reaches a subscriber that came after it happened.
    func send(_ argument: Argument, subscribedUpTo latest: Int = .max) {
        let callbacks = state.withLock { state in
            state.callbacks.filter { $0.key <= latest }.sorted { $0.key < $1.key }.map(\.value)
        }
        for callback in callbacks { callback(argument) }
    }
}

/// Delivers commits to observers on one serial queue: off the writer's thread, in commit order.
final class CommitNotifier: Sendable {
    let queue = DispatchQueue(label: "Persistence.commit-notifications")
    let subscribers = SubscriberList<DatabaseCommit>()

    func post(_ commit: DatabaseCommit) {
        let latest = subscribers.latestSubscription
        queue.async { [subscribers] in subscribers.send(commit, subscribedUpTo: latest) }
    }
}

/// A value shared between an observer and the commit callback it registers (which cannot capture
/// the observer itself before its initialization ends).
final class SharedState<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) {
        mutex = Mutex(value)
    }

    func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        mutex.withLock { body(&$0) }
    }
}
