import Foundation

public enum ChangeKind: String, Sendable, Codable, DatabaseValueConvertible {
    case insert, update, delete
}

/// One changed row of a history transaction; `entity` is the table name.
public struct HistoryChange: Sendable, Codable, Equatable {
    public let entity: String
    public let rowID: Int64
    public let kind: ChangeKind

    public init(entity: String, rowID: Int64, kind: ChangeKind) {
        self.entity = entity
        self.rowID = rowID
        self.kind = kind
    }
}

/// One committed write transaction that changed something. Tokens only grow.
public struct HistoryTransaction: Sendable, Codable, Equatable {
    public let token: Int64
    public let timestamp: Date
    public let author: String
    public let changes: [HistoryChange]

    public init(token: Int64, timestamp: Date, author: String, changes: [HistoryChange]) {
        self.token = token
        self.timestamp = timestamp
        self.author = author
        self.changes = changes
    }
}

/// The history tables and the SQL that writes and reads them.
enum HistoryStore {
    /// Created before the user's migrations, without a schema version of their own, so that the
    /// user's version numbers stay theirs. AUTOINCREMENT keeps tokens from ever being reused.
    static let schema = """
        CREATE TABLE IF NOT EXISTS history_transaction(
            token INTEGER PRIMARY KEY AUTOINCREMENT,
            timestamp REAL NOT NULL,
            author TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS history_change(
            token INTEGER NOT NULL REFERENCES history_transaction(token) ON DELETE CASCADE,
            entity TEXT NOT NULL,
            row_id INTEGER NOT NULL,
            kind TEXT NOT NULL);
        CREATE INDEX IF NOT EXISTS history_change_by_token ON history_change(token, entity);
        CREATE INDEX IF NOT EXISTS history_change_by_row ON history_change(entity, row_id, token);
        CREATE TABLE IF NOT EXISTS history_gap(
            after INTEGER NOT NULL,
            up_to INTEGER NOT NULL);
        """

    /// Tables whose changes are history: ordinary rowid tables of the main schema, without SQLite's
    /// own, the history tables, virtual-table shadow tables (e.g. FTS5's `*_data`) and WITHOUT ROWID
    /// tables (the update hook never reports them), as told by `PRAGMA table_list` (type 'table'
    /// vs 'shadow'/'virtual'/'view', `wr`).
    static func trackedTables(_ connection: Connection) throws -> Set<String> {
        let rows = try connection.fetchAll("""
            SELECT name FROM pragma_table_list
            WHERE schema = 'main' AND type = 'table' AND NOT wr
              AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE 'history\\_%' ESCAPE '\\'
            """)
        return Set(rows.map { $0[0] as String })
    }

    /// Writes the changes to `tracked` tables as one history transaction; returns its token, or
    /// nil when no tracked row changed. `tracked` is read once at open
    /// (`ObservableSchema`): asking the schema on each commit was a sixth of a check-off's work.
    static func record(_ changes: [(table: String, rowID: Int64, kind: ChangeKind)], tracked: Set<String>, author: String,
                       on connection: Connection) throws -> Int64? {
        let kept = changes.filter { tracked.contains($0.table) }
        guard !kept.isEmpty else { return nil }
        try connection.execute("INSERT INTO history_transaction(timestamp, author) VALUES (?, ?)", [Date(), author])
        let token = connection.lastInsertedRowID
        let insert = try connection.cachedStatement("INSERT INTO history_change(token, entity, row_id, kind) VALUES (?, ?, ?, ?)")
        // Typed binds without the argument array: this runs once per changed row of bulk writes.
        for change in kept {
            try insert.bind(.integer(token), at: 1)
            try insert.bind(.text(change.table), at: 2)
            try insert.bind(.integer(change.rowID), at: 3)
            try insert.bind(.text(change.kind.rawValue), at: 4)
            _ = try insert.step()
            insert.reset()
        }
        return token
    }

    /// Whether a reader that has seen the history up to `token` can go on from it: the token was
    /// handed out by this history (not beyond its newest) and its transactions are still the ones
    /// the reader saw. A restore from an older backup takes back the tokens after the backup's
    /// newest, up to the newest handed out before (`history_gap`): a reader there has seen changes
    /// that are gone, and the commits after the restore would not tell it.
    static func holds(_ token: Int64, on connection: Connection) throws -> Bool {
        guard token <= (try latestToken(connection)) else { return false }
        return try connection.fetchScalar(Bool.self, "SELECT NOT EXISTS (SELECT 1 FROM history_gap WHERE ?1 > after AND ?1 <= up_to)",
                                          [token]) ?? true
    }

    static func latestToken(_ connection: Connection) throws -> Int64 {
        try connection.fetchScalar(Int64.self, "SELECT max(token) FROM history_transaction") ?? 0
    }

    /// The WHERE clause (on `history_transaction t`) and its arguments selecting the transactions
    /// after `token` by an author `authors` keeps with a change to one of `entities` (nil: any).
    static func transactionFilter(after token: Int64, authors: AuthorFilter,
                                  entities: Set<String>?) -> (sql: String, arguments: [any DatabaseValueConvertible]) {
        var sql = "t.token > ?"
        var arguments: [any DatabaseValueConvertible] = [token]
        if let condition = authors.condition(on: "t.author") {
            sql += " AND " + condition.sql
            arguments += condition.arguments
        }
        if let entities {
            sql += " AND EXISTS (SELECT 1 FROM history_change c WHERE c.token = t.token AND c.entity IN (\(sqlPlaceholders(entities.count))))"
            arguments += entities.sorted()
        }
        return (sql, arguments)
    }

    /// Whether a transaction after `token` changed one of `entities` (nil: anything). One index
    /// probe per transaction after the token, whatever their size: no change row is loaded.
    static func hasChanges(to entities: Set<String>?, after token: Int64, on connection: Connection) throws -> Bool {
        if let entities, entities.isEmpty { return false }
        let filter = transactionFilter(after: token, authors: .any, entities: entities)
        return try connection.fetchScalar(Bool.self, "SELECT EXISTS (SELECT 1 FROM history_transaction t WHERE \(filter.sql))",
                                          filter.arguments) ?? false
    }

    static func fetch(after token: Int64, authors: AuthorFilter, entities: Set<String>?, limit: Int,
                      on connection: Connection) throws -> [HistoryTransaction] {
        let filter = transactionFilter(after: token, authors: authors, entities: entities)
        var arguments = filter.arguments + [limit]
        var changeFilter = ""
        if let entities {
            changeFilter = "WHERE h.entity IN (\(sqlPlaceholders(entities.count)))"
            arguments += entities.sorted()
        }
        let rows = try connection.fetchAll("""
            SELECT t.token, t.timestamp, t.author, h.entity, h.row_id, h.kind
            FROM (SELECT token, timestamp, author FROM history_transaction t
                  WHERE \(filter.sql) ORDER BY token LIMIT ?) t
            JOIN history_change h ON h.token = t.token
            \(changeFilter)
            ORDER BY t.token, h.rowid
            """, arguments)
        var transactions: [HistoryTransaction] = []
        var changes: [HistoryChange] = []
        for (index, row) in rows.enumerated() {
            changes.append(HistoryChange(entity: row[3], rowID: row[4], kind: row[5]))
            let token: Int64 = row[0]
            if index == rows.count - 1 || rows[index + 1][0] as Int64 != token {
                transactions.append(HistoryTransaction(token: token, timestamp: row[1], author: row[2], changes: changes))
                changes = []
            }
        }
        return transactions
    }

    /// How many transactions match, and the newest token of all (matching or not).
    static func count(after token: Int64, authors: AuthorFilter, entities: Set<String>?,
                      on connection: Connection) throws -> (matches: Int, newestToken: Int64) {
        let filter = transactionFilter(after: token, authors: authors, entities: entities)
        let matches = try connection.fetchScalar(Int.self, "SELECT count(*) FROM history_transaction t WHERE \(filter.sql)",
                                                 filter.arguments) ?? 0
        return (matches, try latestToken(connection))
    }
}

/// When a row last changed: the newest history transaction that changed it. Tokens only grow,
/// so a later change always has a larger token (a calendar's `SEQUENCE`).
public struct RowRevision: Sendable, Hashable {
    public let token: Int64
    public let timestamp: Date

    public init(token: Int64, timestamp: Date) {
        self.token = token
        self.timestamp = timestamp
    }
}

extension Connection {
    /// The newest change of each of `rowIDs` of table `entity` (rows the history never saw are
    /// absent): one probe of `history_change_by_row` per row, all in one statement.
    public func latestRevisions(of entity: String, rowIDs: [Int64]) throws -> [Int64: RowRevision] {
        guard !rowIDs.isEmpty else { return [:] }
        let rows = try fetchAll("""
            SELECT ids.value AS row_id, t.token, t.timestamp FROM json_each(?) ids
            JOIN history_transaction t
              ON t.token = (SELECT max(c.token) FROM history_change c WHERE c.entity = ? AND c.row_id = ids.value)
            """, [sqlJSONList(rowIDs), entity])
        return Dictionary(rows.map { ($0[0] as Int64, RowRevision(token: $0[1], timestamp: $0[2])) }) { first, _ in first }
    }

    /// The token of the newest committed transaction this connection sees (0 before any): read
    /// inside `Database.read` together with the data, it says exactly which commits that data includes.
    public func latestHistoryToken() throws -> Int64 {
        try HistoryStore.latestToken(self)
    }
}
