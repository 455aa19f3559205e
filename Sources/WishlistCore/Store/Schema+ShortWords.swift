import Persistence

extension Schema {
    /// What answers search words of two characters, which have no trigram of their own (see
    /// `SubstringSearch`): the vocabulary of each trigram index, whose terms starting with the
    /// two characters are found by a range lookup, and an index on each name's last two
    /// characters, the one place a pair of characters starts no trigram.
    static let shortWords = Migration(version: 4, name: "search: two-character words") { connection in
        try connection.execute("""
            CREATE VIRTUAL TABLE TripSearchVocabulary USING fts5vocab(TripSearch, row);
            CREATE VIRTUAL TABLE ActivitySearchVocabulary USING fts5vocab(ActivitySearch, row);
            CREATE INDEX Trip_by_name_ending ON Trip(substr(name_folded, -2));
            CREATE INDEX Activity_by_name_ending ON Activity(substr(name_folded, -2));
            """)
    }
}
