import Persistence

extension Schema {
    /// Ids are never handed out twice, so a stale form, script or Undo notice can only name the
    /// record it was made for (or one that is gone): trips and activities become AUTOINCREMENT
    /// tables (a rebuild: ALTER TABLE cannot add it), and deletions, WITHOUT ROWID to stay out
    /// of the history, take theirs from `IDSequence`.
    static let lastingIDs = Migration(version: 9, name: "ids never reused", rebuildsTables: true) { connection in
        for table in ["Trip", "Activity"] {
            try connection.rebuildTable(table) { definition in
                definition.replacing("id INTEGER PRIMARY KEY,", with: "id INTEGER PRIMARY KEY AUTOINCREMENT,", maxReplacements: 1)
            }
        }
        try connection.execute("""
            CREATE TABLE IDSequence (name TEXT PRIMARY KEY, last_id INTEGER NOT NULL) WITHOUT ROWID;
            INSERT INTO IDSequence (name, last_id) SELECT 'Deletion', coalesce(max(id), 0) FROM Deletion;
            """)
    }

    /// The next deletion id: one more than any handed out before.
    static func nextDeletionID(on connection: Connection) throws -> Int64 {
        try connection.fetchScalar(Int64.self, """
            INSERT INTO IDSequence (name, last_id) VALUES ('Deletion', 1)
            ON CONFLICT (name) DO UPDATE SET last_id = last_id + 1 RETURNING last_id
            """) ?? 1
    }
}
