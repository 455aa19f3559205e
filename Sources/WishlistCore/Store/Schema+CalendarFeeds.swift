import Persistence

extension Schema {
    /// Calendar feeds (`WishlistStore+CalendarFeeds`): a name, the SHA-256 of the secret in the
    /// feed's URL (never the secret), and the trip it shows (NULL: every trip). No foreign key: a
    /// feed outlives its trip's deletion and shows an empty calendar, so subscribed apps drop the
    /// event (and show it again should the deletion be undone). WITHOUT ROWID keeps it out of the
    /// history and exports, like API tokens.
    static let calendarFeeds = Migration(version: 12, name: "calendar feeds") { connection in
        try connection.execute("""
            CREATE TABLE CalendarFeed(
                name TEXT NOT NULL PRIMARY KEY,
                secret_hash TEXT NOT NULL UNIQUE,
                trip_id INTEGER,
                creation_date REAL NOT NULL
            ) WITHOUT ROWID;
            """)
    }
}
