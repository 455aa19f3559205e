import Foundation

/// A place in the history: after the whole transaction `token`, or, with `change`, after that
/// change of it (the rowid of its last change delivered) with the rest of the transaction to come.
/// Written `TOKEN` or `TOKEN:CHANGE`, so that a plain token stays a cursor.
public struct HistoryCursor: Sendable, Hashable, LosslessStringConvertible {
    public let token: Int64
    public let change: Int64?

    public init(token: Int64, change: Int64? = nil) {
        self.token = token
        self.change = change
    }

    public init?(_ text: String) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard let token = Int64(parts[0]), token >= 0 else { return nil }
        if parts.count == 2 {
            guard let change = Int64(parts[1]), change >= 0 else { return nil }
            self.init(token: token, change: change)
        } else {
            self.init(token: token)
        }
    }

    public var description: String {
        change.map { "\(token):\($0)" } ?? String(token)
    }
}

/// The matching changes of one transaction that fit a page: all of them, or a run of them when the
/// transaction is bigger than a page (`continues`: more of its changes follow after `cursor`).
public struct HistoryPiece: Sendable, Equatable {
    public let transaction: HistoryTransaction
    public let continues: Bool
    /// Where the history stands once this piece has been seen.
    public let cursor: HistoryCursor
}

/// One bounded page of history: at most `limit` changes, after looking at a bounded number of
/// change rows and transactions, however large the transactions are.
public struct HistoryPage: Sendable {
    public let pieces: [HistoryPiece]
    /// Pass it as the next page's cursor: everything matching up to it has been returned.
    public let cursor: HistoryCursor
    /// The page stopped at its bounds; false when it reached the newest transaction.
    public let hasMore: Bool
    /// The newest token of the whole history, matching or not, when the page was read.
    public let newestToken: Int64
}

extension HistoryStore {
    /// The most change rows one page looks at, matching or not: an entity filter over a huge
    /// transaction that changed other tables costs several pages, not an unbounded scan.
    static let changeRowsPerPage = 10_000

    static func page(after cursor: HistoryCursor, authors: AuthorFilter, entities: Set<String>?, limit: Int,
                     on connection: Connection) throws -> HistoryPage {
        let newest = try latestToken(connection)
        var pieces: [HistoryPiece] = []
        var position = cursor
        var changesLeft = limit
        var rowsLeft = changeRowsPerPage
        while changesLeft > 0, rowsLeft > 0 {
            let token: Int64
            let changeRows: ClosedRange<Int64>?
            let after: Int64
            if let change = position.change {
                (token, after) = (position.token, change)
                changeRows = try Self.changeRows(of: token, on: connection)
            } else {
                guard let next = try nextTransaction(after: position.token, authors: authors, entities: entities,
                                                     on: connection) else {
                    return HistoryPage(pieces: pieces, cursor: HistoryCursor(token: max(newest, position.token)),
                                       hasMore: false, newestToken: newest)
                }
                (token, changeRows) = next
                after = (changeRows?.lowerBound ?? 1) - 1
            }
            // A cursor inside a transaction the filter no longer keeps (the client changed its
            // filter) or one without changes: nothing to send of it.
            guard let last = changeRows?.upperBound,
                  let header = try connection.fetchOne("SELECT timestamp, author FROM history_transaction WHERE token = ?", [token]),
                  authors.matches(header[1]) else {
                position = HistoryCursor(token: token)
                continue
            }
            // Rowids of one transaction are consecutive (its changes are written together, rowids only grow).
            let upper = min(last, after + Int64(rowsLeft))
            var sql = "SELECT rowid, entity, row_id, kind FROM history_change WHERE rowid > ? AND rowid <= ? AND +token = ?"
            var arguments: [any DatabaseValueConvertible] = [after, upper, token]
            if let entities {
                sql += " AND +entity IN (\(sqlPlaceholders(entities.count)))"
                arguments += entities.sorted()
            }
            let rows = try connection.fetchAll(sql + " ORDER BY rowid LIMIT ?", arguments + [changesLeft])
            let reached = rows.count == changesLeft ? rows.last![0] as Int64 : upper
            rowsLeft -= Int(max(1, reached - after))
            changesLeft -= rows.count
            position = reached == last ? HistoryCursor(token: token) : HistoryCursor(token: token, change: reached)
            if !rows.isEmpty {
                let changes = rows.map { HistoryChange(entity: $0[1], rowID: $0[2], kind: $0[3]) }
                pieces.append(HistoryPiece(transaction: HistoryTransaction(token: token, timestamp: header[0], author: header[1],
                                                                           changes: changes),
                                           continues: position.change != nil, cursor: position))
            }
        }
        return HistoryPage(pieces: pieces, cursor: position, hasMore: true, newestToken: newest)
    }

    /// The first transaction after `token` matching the filter, with the rowids of its changes.
    private static func nextTransaction(after token: Int64, authors: AuthorFilter, entities: Set<String>?,
                                        on connection: Connection) throws -> (token: Int64, changes: ClosedRange<Int64>?)? {
        if let entities, entities.isEmpty { return nil }
        let filter = transactionFilter(after: token, authors: authors, entities: entities)
        guard let next = try connection.fetchScalar(Int64.self, "SELECT token FROM history_transaction t WHERE \(filter.sql) ORDER BY token LIMIT 1",
                                                    filter.arguments) else { return nil }
        return (next, try changeRows(of: next, on: connection))
    }

    /// The first and last rowid of a transaction's changes, found in a few index probes per entity
    /// it changed (the index is by token and entity): never a walk over its changes.
    static func changeRows(of token: Int64, on connection: Connection) throws -> ClosedRange<Int64>? {
        let row = try connection.fetchOne("""
            WITH RECURSIVE changed(entity) AS (
                SELECT (SELECT min(entity) FROM history_change WHERE token = ?1)
                UNION ALL
                SELECT (SELECT min(entity) FROM history_change WHERE token = ?1 AND entity > changed.entity)
                FROM changed WHERE changed.entity IS NOT NULL)
            SELECT min((SELECT min(rowid) FROM history_change WHERE token = ?1 AND entity = changed.entity)),
                   max((SELECT max(rowid) FROM history_change WHERE token = ?1 AND entity = changed.entity))
            FROM changed WHERE changed.entity IS NOT NULL
            """, [token])
        guard let row, let first = row[0] as Int64?, let last = row[1] as Int64? else { return nil }
        return first...last
    }
}
