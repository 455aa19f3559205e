import Persistence

extension Schema {
    /// The number of trips in each collection, kept by triggers, so the Wishlist page's "Show all
    /// (count)" of each row costs one lookup instead of counting a quarter of the Trip table on
    /// every view (at 100,000 trips that count was most of the page's time in a profile; see
    /// Benchmarks/README.md). WITHOUT ROWID keeps this derived data out of the history feed.
    /// The rows' index also gains `name`, the whole sort key (name_folded, name, rowid), so a
    /// row's first cards are read in order instead of sorting each group of equal folded names.
    static let collectionRows = Migration(version: 3, name: "trip count per collection, collection rows by sort key") { connection in
        try connection.execute("""
            DROP INDEX Trip_by_collection_and_name;
            CREATE INDEX Trip_by_collection_and_name ON Trip(collection, name_folded, name);

            CREATE TABLE TripCollectionCount (
                collection TEXT PRIMARY KEY,
                trip_count INTEGER NOT NULL CHECK (trip_count >= 0)
            ) WITHOUT ROWID;

            CREATE TRIGGER Trip_counted AFTER INSERT ON Trip BEGIN
                UPDATE TripCollectionCount SET trip_count = trip_count + 1 WHERE collection = NEW.collection;
            END;
            CREATE TRIGGER Trip_uncounted AFTER DELETE ON Trip BEGIN
                UPDATE TripCollectionCount SET trip_count = trip_count - 1 WHERE collection = OLD.collection;
            END;
            CREATE TRIGGER Trip_recounted AFTER UPDATE OF collection ON Trip
                WHEN OLD.collection <> NEW.collection BEGIN
                UPDATE TripCollectionCount SET trip_count = trip_count + (collection = NEW.collection) - (collection = OLD.collection)
                    WHERE collection IN (OLD.collection, NEW.collection);
            END;
            """)
        for collection in TripCollection.allCases {
            try connection.execute("""
                INSERT INTO TripCollectionCount (collection, trip_count)
                VALUES (?1, (SELECT count(*) FROM Trip WHERE collection = ?1))
                """, [collection])
        }
    }
}
