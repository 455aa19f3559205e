import Foundation

/// A fixed set of connections lent to one thread at a time; a borrower waits while all are busy.
/// With one connection it serializes its users, which is how the single writer is guarded.
///
/// `@unchecked Sendable`: the non-Sendable connections are only reached under `condition`, and
/// a borrowed connection belongs to the borrowing thread until it is given back.
final class ConnectionPool: @unchecked Sendable {
    private let condition = NSCondition()
    private var idle: [Connection]
    private var borrowedCount = 0
    private var isClosed = false

    init(_ connections: [Connection]) {
        idle = connections
    }

    func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        condition.lock()
        while idle.isEmpty && !isClosed { condition.wait() }
        guard !isClosed else {
            condition.unlock()
            throw DatabaseError.misuse("the database is closed")
        }
        let connection = idle.removeLast()
        borrowedCount += 1
        condition.unlock()
        defer {
            condition.lock()
            idle.append(connection)
            borrowedCount -= 1
            condition.broadcast()
            condition.unlock()
        }
        return try body(connection)
    }

    /// Calls `body` with each connection not lent out right now, holding the pool meanwhile
    /// (for quick work such as freeing caches; borrowers wait).
    func forEachIdle(_ body: (Connection) -> Void) {
        condition.lock()
        defer { condition.unlock() }
        idle.forEach(body)
    }

    /// Refuses new borrowers, waits for the current ones to finish, then closes every connection.
    func close() {
        condition.lock()
        isClosed = true
        condition.broadcast()
        while borrowedCount > 0 { condition.wait() }
        idle.removeAll()
        condition.unlock()
    }
}
