import Persistence

extension Schema {
    /// The migration's number. Numbers need not be contiguous (`Migration`): 5 belongs to the trip
    /// destinations and dates built beside this.
    static let apiTokensVersion = 7

    /// API tokens for scripts (`WishlistStore+APITokens`): a name and the SHA-256 of the secret,
    /// never the secret. WITHOUT ROWID keeps the table out of the history (the feed is for sync
    /// clients, which have no business with tokens), and exports never read it.
    static let apiTokens = Migration(version: apiTokensVersion, name: "API tokens") { connection in
        try connection.execute("""
            CREATE TABLE APIToken(
                name TEXT NOT NULL PRIMARY KEY,
                secret_hash TEXT NOT NULL UNIQUE,
                creation_date REAL NOT NULL
            ) WITHOUT ROWID;
            """)
    }
}
