import Persistence

extension Schema {
    /// The idempotency keys of writes (`WishlistStore+IdempotencyKeys`): each key's request
    /// fingerprint, its client (for the quota) and the answer to give a replay (NULL status: the
    /// write committed but its answer was not kept). WITHOUT ROWID keeps it out of the history
    /// (so out of sync), and exports never read it, like API tokens.
    static let idempotencyKeys = Migration(version: 14, name: "idempotency keys") { connection in
        try connection.execute("""
            CREATE TABLE IdempotencyKey(
                key TEXT NOT NULL PRIMARY KEY,
                client TEXT NOT NULL,
                fingerprint TEXT NOT NULL,
                creation_date REAL NOT NULL,
                status INTEGER,
                location TEXT,
                content_type TEXT,
                body BLOB
            ) WITHOUT ROWID;
            CREATE INDEX IdempotencyKey_age ON IdempotencyKey(creation_date);
            CREATE INDEX IdempotencyKey_client ON IdempotencyKey(client, creation_date);
            """)
    }
}
