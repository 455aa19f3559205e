import Synchronization

/// Work that commits with the first write a piece of code makes, or not at all: a record that
/// must never exist without the change it describes, nor the change without it (a request's
/// idempotency key beside the write it answers). Bound with `Database.withCompanion(_:_:)` to
/// that database's writes made on this thread while its body runs; the first there runs it
/// after its own body, in its transaction (writes to other databases, such as an import's
/// staging copy, never do).
public final class WriteCompanion: Sendable {
    private let work: @Sendable (Connection) throws -> Void
    private let state = Mutex(State.waiting)

    private enum State { case waiting, running, committed }

    public init(_ work: @escaping @Sendable (Connection) throws -> Void) {
        self.work = work
    }

    /// Whether a write committed with the work in it.
    public var hasCommitted: Bool { state.withLock { $0 == .committed } }

    /// The companion bound on this thread, with the database whose writes it rides on.
    @TaskLocal static var current: (database: ObjectIdentifier, companion: WriteCompanion)?

    /// Runs the work in the transaction on `connection`, unless a write already took it.
    func run(on connection: Connection) throws {
        guard state.withLock({ state in
            guard state == .waiting else { return false }
            state = .running
            return true
        }) else { return }
        do {
            try work(connection)
        } catch {
            state.withLock { $0 = .waiting }
            throw error
        }
    }

    /// The transaction that ran the work ended: committed, or rolled back (then a later write takes it).
    func ended(committed: Bool) {
        state.withLock { state in
            if state == .running { state = committed ? .committed : .waiting }
        }
    }
}

extension Database {
    /// Runs `body` with `companion` riding on its first write (see `WriteCompanion`).
    public func withCompanion<T>(_ companion: WriteCompanion, _ body: () throws -> T) rethrows -> T {
        try WriteCompanion.$current.withValue((ObjectIdentifier(self), companion), operation: body)
    }
}
