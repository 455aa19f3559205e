import Persistence

/// The database schema of the wishlist. Table names are the entity names that appear in the
/// history feed: Trip, Activity, TripImage, Goal, Preference (APIToken, CalendarFeed and IdempotencyKey stay out of it).
///
/// Derived data is kept by triggers, so every write path (the app, seeding, import, a script
/// using the sqlite3 shell) leaves it right within its own transaction and no reader ever sees
/// it out of step:
/// - `Trip.activity_count` / `completed_activity_count` follow the trip's activities, and
///   `Trip.is_complete` is a generated column over them (at least one activity, all complete);
/// - `Goal.completed_count` moves by ±1 when an activity or a trip changes state (never a
///   rescan), `Goal.is_achieved` is generated from it, and `date_achieved` is set when a goal
///   crosses its target upward and cleared when it falls back;
/// - the FTS5 trigram tables `TripSearch` / `ActivitySearch` index the accent-folded names
///   (`name_folded`, written by the Swift code since SQLite cannot fold accents; a trip's also
///   holds its destination, `TripFields.searchText`), and
///   `ActivityAndTripSearch` each activity's name beside its trip's (`Schema.searchWords`).
enum Schema {
    static let migrations = [
        Migration(version: 1, name: "trips, activities, goals, preferences, search") { connection in
            try connection.execute(tables)
            try connection.execute(triggers)
            try insertGoals(connection)
        },
        Migration(version: 2, name: "photos: thumbnail and display sizes, content version, HEIC renditions, shared images") { connection in
            try connection.execute(photoColumns)
        },
        collectionRows,
        searchWords,
        destinations,
        recentlyDeleted,
        apiTokens,
        tripPositions,
        lastingIDs,
        searchedFields,
        galleries,
        calendarFeeds,
        thumbnailsOncePerImage,
        idempotencyKeys,
    ]

    /// Photos (see `PhotoLibrary`). The sizes and the content version live on the trip row so
    /// that every screen listing trips gets them without a join: `photo_version` (the start of the
    /// image's content hash) makes the photo URLs content-versioned, the sizes fill the `<img>`
    /// width/height. A TripImage row is shared by every trip showing the same picture (its file
    /// is stored once, `file_name` is unique), so it goes when the last of them lets go of it.
    static let photoColumns = """
        ALTER TABLE Trip ADD COLUMN thumbnail_width INTEGER;
        ALTER TABLE Trip ADD COLUMN thumbnail_height INTEGER;
        ALTER TABLE Trip ADD COLUMN photo_version TEXT;
        ALTER TABLE Trip ADD COLUMN photo_width INTEGER;
        ALTER TABLE Trip ADD COLUMN photo_height INTEGER;
        -- A JPEG browsers can show, stored beside an original they cannot (HEIC).
        ALTER TABLE TripImage ADD COLUMN display_file_name TEXT;

        DROP TRIGGER Trip_deleted;
        CREATE TRIGGER Trip_deleted AFTER DELETE ON Trip BEGIN
            INSERT INTO TripSearch(TripSearch, rowid, name_folded) VALUES ('delete', OLD.id, OLD.name_folded);
            UPDATE Goal SET completed_count = completed_count - 1
                WHERE OLD.is_complete AND (kind = 'trips' OR collection = OLD.collection);
            DELETE FROM TripImage WHERE id = OLD.image_id AND NOT EXISTS (SELECT 1 FROM Trip WHERE image_id = OLD.image_id);
        END;
        CREATE TRIGGER Trip_image_replaced AFTER UPDATE OF image_id ON Trip
            WHEN OLD.image_id IS NOT NULL AND OLD.image_id IS NOT NEW.image_id BEGIN
            DELETE FROM TripImage WHERE id = OLD.image_id AND NOT EXISTS (SELECT 1 FROM Trip WHERE image_id = OLD.image_id);
        END;
        """

    static let tables = """
        CREATE TABLE TripImage (
            id INTEGER PRIMARY KEY,
            file_name TEXT NOT NULL UNIQUE,
            media_type TEXT NOT NULL,
            byte_count INTEGER NOT NULL,
            width INTEGER NOT NULL,
            height INTEGER NOT NULL
        );
        CREATE TABLE Trip (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            name_folded TEXT NOT NULL,
            subtitle TEXT,
            collection TEXT NOT NULL
                CHECK (collection IN ('springEscapes', 'summerVibes', 'fallGetaways', 'winterRetreats')),
            creation_date REAL NOT NULL,
            activity_count INTEGER NOT NULL DEFAULT 0,
            completed_activity_count INTEGER NOT NULL DEFAULT 0,
            is_complete INTEGER GENERATED ALWAYS AS
                (activity_count > 0 AND completed_activity_count = activity_count) VIRTUAL,
            thumbnail BLOB,
            thumbnail_format TEXT,
            image_id INTEGER REFERENCES TripImage(id) ON DELETE SET NULL
        );
        CREATE INDEX Trip_by_collection_and_name ON Trip(collection, name_folded);
        CREATE INDEX Trip_by_creation_date ON Trip(creation_date);
        CREATE INDEX Trip_by_name ON Trip(name_folded);
        CREATE INDEX Trip_by_image ON Trip(image_id);

        -- One index leads with trip_id: it serves the foreign key, the title order and, for
        -- the other orders, the few activities of one trip are sorted after this lookup.
        -- Fewer indexes keep bulk imports fast.
        CREATE TABLE Activity (
            id INTEGER PRIMARY KEY,
            trip_id INTEGER NOT NULL REFERENCES Trip(id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            name_folded TEXT NOT NULL,
            is_complete INTEGER NOT NULL DEFAULT 0 CHECK (is_complete IN (0, 1)),
            date_created REAL NOT NULL,
            date_edited REAL NOT NULL
        );
        CREATE INDEX Activity_by_trip_and_name ON Activity(trip_id, name_folded);
        CREATE INDEX Activity_by_name ON Activity(name_folded);

        CREATE TABLE Goal (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('activities', 'trips', 'collectionTrips')),
            collection TEXT CHECK ((kind = 'collectionTrips') = (collection IS NOT NULL)),
            target INTEGER NOT NULL CHECK (target > 0),
            completed_count INTEGER NOT NULL DEFAULT 0,
            is_achieved INTEGER GENERATED ALWAYS AS (completed_count >= target) VIRTUAL,
            date_achieved REAL,
            sort_order INTEGER NOT NULL UNIQUE,
            badge TEXT NOT NULL UNIQUE,
            achieved_subtitle TEXT NOT NULL
        );
        CREATE INDEX Goal_by_achievement ON Goal(is_achieved, date_achieved);

        -- A rowid table (not WITHOUT ROWID) so that its changes reach the history.
        CREATE TABLE Preference (
            id INTEGER PRIMARY KEY,
            key TEXT NOT NULL UNIQUE,
            value TEXT NOT NULL
        );

        CREATE VIRTUAL TABLE TripSearch USING fts5(
            name_folded, content = 'Trip', content_rowid = 'id', tokenize = 'trigram', detail = 'none', columnsize = 0);
        CREATE VIRTUAL TABLE ActivitySearch USING fts5(
            name_folded, content = 'Activity', content_rowid = 'id', tokenize = 'trigram', detail = 'none', columnsize = 0);
        """

    /// Now as seconds since 1970, rounded to the millisecond like every date the app writes
    /// (archives keep milliseconds, so dates survive an export and import unchanged).
    private static let now = "round((julianday('now') - 2440587.5) * 86400000) / 1000"

    static let triggers = """
        CREATE TRIGGER Activity_inserted AFTER INSERT ON Activity BEGIN
            UPDATE Trip SET activity_count = activity_count + 1,
                            completed_activity_count = completed_activity_count + NEW.is_complete
                WHERE id = NEW.trip_id;
            UPDATE Goal SET completed_count = completed_count + 1 WHERE NEW.is_complete AND kind = 'activities';
            INSERT INTO ActivitySearch(rowid, name_folded) VALUES (NEW.id, NEW.name_folded);
        END;
        CREATE TRIGGER Activity_deleted AFTER DELETE ON Activity BEGIN
            UPDATE Trip SET activity_count = activity_count - 1,
                            completed_activity_count = completed_activity_count - OLD.is_complete
                WHERE id = OLD.trip_id;
            UPDATE Goal SET completed_count = completed_count - 1 WHERE OLD.is_complete AND kind = 'activities';
            INSERT INTO ActivitySearch(ActivitySearch, rowid, name_folded) VALUES ('delete', OLD.id, OLD.name_folded);
        END;
        CREATE TRIGGER Activity_completion_changed AFTER UPDATE OF is_complete ON Activity
            WHEN OLD.is_complete <> NEW.is_complete BEGIN
            UPDATE Trip SET completed_activity_count = completed_activity_count + NEW.is_complete - OLD.is_complete
                WHERE id = NEW.trip_id;
            UPDATE Goal SET completed_count = completed_count + NEW.is_complete - OLD.is_complete
                WHERE kind = 'activities';
        END;
        CREATE TRIGGER Activity_renamed AFTER UPDATE OF name_folded ON Activity BEGIN
            INSERT INTO ActivitySearch(ActivitySearch, rowid, name_folded) VALUES ('delete', OLD.id, OLD.name_folded);
            INSERT INTO ActivitySearch(rowid, name_folded) VALUES (NEW.id, NEW.name_folded);
        END;
        -- The counters above assume an activity never moves to another trip.
        CREATE TRIGGER Activity_stays_with_its_trip BEFORE UPDATE OF trip_id ON Activity
            WHEN OLD.trip_id <> NEW.trip_id BEGIN
            SELECT RAISE(ABORT, 'an activity cannot move to another trip');
        END;

        CREATE TRIGGER Trip_inserted AFTER INSERT ON Trip BEGIN
            INSERT INTO TripSearch(rowid, name_folded) VALUES (NEW.id, NEW.name_folded);
        END;
        CREATE TRIGGER Trip_renamed AFTER UPDATE OF name_folded ON Trip BEGIN
            INSERT INTO TripSearch(TripSearch, rowid, name_folded) VALUES ('delete', OLD.id, OLD.name_folded);
            INSERT INTO TripSearch(rowid, name_folded) VALUES (NEW.id, NEW.name_folded);
        END;
        -- Its activities are deleted by the cascade (their own trigger updates the activity goals).
        CREATE TRIGGER Trip_deleted AFTER DELETE ON Trip BEGIN
            INSERT INTO TripSearch(TripSearch, rowid, name_folded) VALUES ('delete', OLD.id, OLD.name_folded);
            UPDATE Goal SET completed_count = completed_count - 1
                WHERE OLD.is_complete AND (kind = 'trips' OR collection = OLD.collection);
            DELETE FROM TripImage WHERE id = OLD.image_id;
        END;
        CREATE TRIGGER Trip_completion_changed AFTER UPDATE OF activity_count, completed_activity_count ON Trip
            WHEN OLD.is_complete <> NEW.is_complete BEGIN
            UPDATE Goal SET completed_count = completed_count + NEW.is_complete - OLD.is_complete
                WHERE kind = 'trips' OR collection = NEW.collection;
        END;
        CREATE TRIGGER Trip_collection_changed AFTER UPDATE OF collection ON Trip
            WHEN OLD.collection <> NEW.collection AND NEW.is_complete BEGIN
            UPDATE Goal SET completed_count = completed_count + (collection = NEW.collection) - (collection = OLD.collection)
                WHERE collection IN (OLD.collection, NEW.collection);
        END;

        CREATE TRIGGER Goal_achievement_changed AFTER UPDATE OF completed_count ON Goal
            WHEN OLD.is_achieved <> NEW.is_achieved BEGIN
            UPDATE Goal SET date_achieved = CASE WHEN NEW.is_achieved THEN \(now) END WHERE id = NEW.id;
        END;
        """

    private static func insertGoals(_ connection: Connection) throws {
        for (sortOrder, goal) in GoalCatalog.all.enumerated() {
            let columns = goal.kind.columns
            try connection.execute("""
                INSERT INTO Goal (name, kind, collection, target, sort_order, badge, achieved_subtitle)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [goal.name, columns.kind, columns.collection, goal.target, sortOrder, goal.badge, goal.achievedSubtitle])
        }
    }
}

extension Schema {
    /// Runs a bulk load (`body`) without the triggers, then recomputes in a few set-based
    /// statements all that they maintain, and puts the triggers back from their own SQL: all in
    /// the caller's transaction, so a failure restores everything.
    ///
    /// Why: FTS5 flushes its pending index at every statement, so a trigger feeding it from
    /// each of a million INSERTs costs ten times one INSERT … SELECT in rowid order.
    static func withoutTriggers<T>(on connection: Connection, _ body: () throws -> T) throws -> T {
        let triggers = try connection.fetchAll("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY rowid")
        for trigger in triggers {
            try connection.execute("DROP TRIGGER \"\(trigger["name"] as String)\"")
        }
        let result = try body()
        try recomputeDerivedData(on: connection, galleries: triggers.contains { $0["name"] == "Photo_added" })
        for trigger in triggers {
            try connection.execute(trigger["sql"] as String)
        }
        return result
    }

    /// Trip counters, collection counts, goal progress (achievement dates: now, for goals achieved)
    /// and the search indexes, each merged into one segment: a bulk build leaves several (FTS5
    /// writes one per megabyte of pending entries), and a search of common words reads each
    /// trigram's rows from every segment, a quarter slower with eight than with one.
    /// `galleries`: each trip's cover and photo count from its gallery too (once galleries exist).
    private static func recomputeDerivedData(on connection: Connection, galleries: Bool) throws {
        if galleries {
            try connection.execute(coverFromGallery(tripID: "Trip.id"))
            try connection.execute(photoCounts)
        }
        try connection.execute("""
            UPDATE Trip SET (activity_count, completed_activity_count) =
                (SELECT count(*), coalesce(sum(is_complete), 0) FROM Activity WHERE trip_id = Trip.id);
            UPDATE Goal SET completed_count = CASE kind
                WHEN 'activities' THEN (SELECT count(*) FROM Activity WHERE is_complete)
                WHEN 'trips' THEN (SELECT count(*) FROM Trip WHERE is_complete)
                ELSE (SELECT count(*) FROM Trip WHERE is_complete AND Trip.collection = Goal.collection) END;
            UPDATE Goal SET date_achieved = CASE WHEN is_achieved THEN coalesce(date_achieved, \(now)) END;
            UPDATE TripCollectionCount SET trip_count =
                (SELECT count(*) FROM Trip WHERE Trip.collection = TripCollectionCount.collection);
            INSERT INTO TripSearch(TripSearch) VALUES ('delete-all');
            INSERT INTO TripSearch(rowid, name_folded) SELECT id, name_folded FROM Trip ORDER BY id;
            INSERT INTO ActivitySearch(ActivitySearch) VALUES ('delete-all');
            INSERT INTO ActivitySearch(rowid, name_folded) SELECT id, name_folded FROM Activity ORDER BY id;
            INSERT INTO ActivityAndTripSearch(ActivityAndTripSearch) VALUES ('delete-all');
            \(activityAndTripIndexing)
            INSERT INTO TripSearch(TripSearch) VALUES ('optimize');
            INSERT INTO ActivitySearch(ActivitySearch) VALUES ('optimize');
            INSERT INTO ActivityAndTripSearch(ActivityAndTripSearch) VALUES ('optimize');
            """)
    }
}
