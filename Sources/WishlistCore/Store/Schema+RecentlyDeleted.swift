import Persistence

extension Schema {
    /// Recently deleted trips and activities, kept so a delete can be undone (`WishlistStore+Undo`):
    /// a `Deletion` row names what went, and copies of its rows, as they were, wait in
    /// `DeletedTrip` / `DeletedActivity`. A deleted trip's `image_id` keeps its TripImage row, and so
    /// its photo's files (the startup sweep keeps every file a TripImage row names), until the
    /// deletion is let go of. WITHOUT ROWID keeps these copies out of the history feed: a sync tool
    /// sees the delete, and an undo as the rows coming back.
    /// A column added to Trip or Activity later must be added here and to `DeletedRows` too.
    static let recentlyDeleted = Migration(version: 6, name: "recently deleted trips and activities, for undo") { connection in
        try connection.execute("""
            CREATE TABLE Deletion (
                id INTEGER PRIMARY KEY,
                date_deleted REAL NOT NULL,
                entity TEXT NOT NULL CHECK (entity IN ('trip', 'activity')),
                name TEXT NOT NULL,
                trip_id INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE TABLE DeletedTrip (
                deletion_id INTEGER PRIMARY KEY,
                id INTEGER NOT NULL,
                name TEXT NOT NULL,
                name_folded TEXT NOT NULL,
                subtitle TEXT,
                collection TEXT NOT NULL,
                creation_date REAL NOT NULL,
                thumbnail BLOB,
                thumbnail_format TEXT,
                thumbnail_width INTEGER,
                thumbnail_height INTEGER,
                photo_version TEXT,
                photo_width INTEGER,
                photo_height INTEGER,
                image_id INTEGER,
                destination TEXT,
                latitude REAL,
                longitude REAL,
                place TEXT,
                start_date TEXT,
                end_date TEXT
            ) WITHOUT ROWID;
            CREATE INDEX DeletedTrip_by_image ON DeletedTrip(image_id);
            CREATE TABLE DeletedActivity (
                deletion_id INTEGER NOT NULL,
                id INTEGER NOT NULL,
                trip_id INTEGER NOT NULL,
                name TEXT NOT NULL,
                name_folded TEXT NOT NULL,
                is_complete INTEGER NOT NULL,
                date_created REAL NOT NULL,
                date_edited REAL NOT NULL,
                PRIMARY KEY (deletion_id, id)
            ) WITHOUT ROWID;

            DROP TRIGGER Trip_deleted;
            CREATE TRIGGER Trip_deleted AFTER DELETE ON Trip BEGIN
                INSERT INTO TripSearch(TripSearch, rowid, name_folded) VALUES ('delete', OLD.id, OLD.name_folded);
                UPDATE Goal SET completed_count = completed_count - 1
                    WHERE OLD.is_complete AND (kind = 'trips' OR collection = OLD.collection);
                DELETE FROM TripImage WHERE id = OLD.image_id AND NOT EXISTS (SELECT 1 FROM Trip WHERE image_id = OLD.image_id)
                    AND NOT EXISTS (SELECT 1 FROM DeletedTrip WHERE image_id = OLD.image_id);
            END;
            DROP TRIGGER Trip_image_replaced;
            CREATE TRIGGER Trip_image_replaced AFTER UPDATE OF image_id ON Trip
                WHEN OLD.image_id IS NOT NULL AND OLD.image_id IS NOT NEW.image_id BEGIN
                DELETE FROM TripImage WHERE id = OLD.image_id AND NOT EXISTS (SELECT 1 FROM Trip WHERE image_id = OLD.image_id)
                    AND NOT EXISTS (SELECT 1 FROM DeletedTrip WHERE image_id = OLD.image_id);
            END;
            """)
    }
}
