import Persistence

extension Schema {
    /// Indexes for searches of several words (see `SubstringSearch`):
    /// - `ActivityAndTripSearch`, a contentless trigram index of each activity's name beside its
    ///   trip's, so that words split between the two (`kona snorkel`) are found by one lookup
    ///   that asks for trigrams of every word. Contentless: deleting an entry takes the values
    ///   it was made from, so a trip's BEFORE DELETE trigger removes its activities' entries
    ///   while its name is still there (the cascade deletes them after the trip row is gone);
    /// - for words of two characters, which have no trigram of their own: the vocabulary of
    ///   each name index, whose terms starting with the two characters are a range lookup, and
    ///   an index on each name's last two characters, the one place a pair starts no trigram.
    static let searchWords = Migration(version: 4, name: "search: words split between activity and trip, two-character words") { connection in
        try connection.execute("""
            CREATE VIRTUAL TABLE ActivityAndTripSearch USING fts5(
                name_folded, trip_name_folded, content = '', tokenize = 'trigram', detail = 'none', columnsize = 0);
            \(activityAndTripIndexing)
            CREATE TRIGGER Activity_indexed_with_trip AFTER INSERT ON Activity BEGIN
                INSERT INTO ActivityAndTripSearch(rowid, name_folded, trip_name_folded)
                    SELECT NEW.id, NEW.name_folded, name_folded FROM Trip WHERE id = NEW.trip_id;
            END;
            CREATE TRIGGER Activity_reindexed_with_trip AFTER UPDATE OF name_folded ON Activity BEGIN
                INSERT INTO ActivityAndTripSearch(ActivityAndTripSearch, rowid, name_folded, trip_name_folded)
                    SELECT 'delete', OLD.id, OLD.name_folded, name_folded FROM Trip WHERE id = OLD.trip_id;
                INSERT INTO ActivityAndTripSearch(rowid, name_folded, trip_name_folded)
                    SELECT NEW.id, NEW.name_folded, name_folded FROM Trip WHERE id = NEW.trip_id;
            END;
            -- Finds no trip when the trip's own deletion cascades here: its trigger did the work.
            CREATE TRIGGER Activity_unindexed_with_trip AFTER DELETE ON Activity BEGIN
                INSERT INTO ActivityAndTripSearch(ActivityAndTripSearch, rowid, name_folded, trip_name_folded)
                    SELECT 'delete', OLD.id, OLD.name_folded, name_folded FROM Trip WHERE id = OLD.trip_id;
            END;
            CREATE TRIGGER Trip_activities_unindexed BEFORE DELETE ON Trip BEGIN
                INSERT INTO ActivityAndTripSearch(ActivityAndTripSearch, rowid, name_folded, trip_name_folded)
                    SELECT 'delete', id, name_folded, OLD.name_folded FROM Activity WHERE trip_id = OLD.id;
            END;
            CREATE TRIGGER Trip_activities_reindexed AFTER UPDATE OF name_folded ON Trip BEGIN
                INSERT INTO ActivityAndTripSearch(ActivityAndTripSearch, rowid, name_folded, trip_name_folded)
                    SELECT 'delete', id, name_folded, OLD.name_folded FROM Activity WHERE trip_id = OLD.id;
                INSERT INTO ActivityAndTripSearch(rowid, name_folded, trip_name_folded)
                    SELECT id, name_folded, NEW.name_folded FROM Activity WHERE trip_id = NEW.id;
            END;

            CREATE VIRTUAL TABLE TripSearchVocabulary USING fts5vocab(TripSearch, row);
            CREATE VIRTUAL TABLE ActivitySearchVocabulary USING fts5vocab(ActivitySearch, row);
            CREATE INDEX Trip_by_name_ending ON Trip(substr(name_folded, -2));
            CREATE INDEX Activity_by_name_ending ON Activity(substr(name_folded, -2));
            """)
    }

    /// Every activity's entry in `ActivityAndTripSearch`, in rowid order (for the migration and
    /// after bulk loads; the index must be empty).
    static let activityAndTripIndexing = """
        INSERT INTO ActivityAndTripSearch(rowid, name_folded, trip_name_folded)
            SELECT Activity.id, Activity.name_folded, Trip.name_folded FROM Activity JOIN Trip ON Trip.id = Activity.trip_id
            ORDER BY Activity.id;
        """
}
