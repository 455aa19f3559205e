import Persistence

extension Schema {
    /// A trip's photos (`Photo`), in their order; the first is the trip's cover. The Trip row keeps
    /// a copy of the cover's sizes, version and image (`coverFromGallery`), so every
    /// screen listing trips still reads one row per trip, and `photo_count`, so adding or deleting
    /// any photo is a change of its trip (what a sync tool or an offline copy follows); triggers
    /// keep both in step with the gallery on every write path. A TripImage row (the file, stored once) lives while a photo,
    /// or a copy kept for undo (`DeletedPhoto`), shows it. Today's photo of each trip becomes the
    /// first of its gallery; deletions waiting for an undo keep theirs the same way.
    static let galleries = Migration(version: 11, name: "photo galleries: many photos a trip, the first its cover",
                                     rebuildsTables: true) { connection in
        try connection.rebuildTable("Deletion") { definition in
            definition.replacing("entity IN ('trip', 'activity')", with: "entity IN ('trip', 'activity', 'photo')", maxReplacements: 1)
        }
        try connection.execute("""
            CREATE TABLE Photo (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                trip_id INTEGER NOT NULL REFERENCES Trip(id) ON DELETE CASCADE ON UPDATE CASCADE,
                image_id INTEGER NOT NULL REFERENCES TripImage(id),
                \(galleryColumnDefinitions),
                UNIQUE (trip_id, image_id)
            );
            CREATE INDEX Photo_by_trip ON Photo(trip_id, position);
            CREATE INDEX Photo_by_image ON Photo(image_id);
            CREATE TABLE DeletedPhoto (
                deletion_id INTEGER NOT NULL,
                id INTEGER NOT NULL,
                trip_id INTEGER NOT NULL,
                image_id INTEGER NOT NULL,
                \(galleryColumnDefinitions),
                PRIMARY KEY (deletion_id, id)
            ) WITHOUT ROWID;
            CREATE INDEX DeletedPhoto_by_image ON DeletedPhoto(image_id);
            ALTER TABLE Trip ADD COLUMN photo_count INTEGER NOT NULL DEFAULT 0;

            INSERT INTO Photo (trip_id, image_id, position, thumbnail, thumbnail_format, thumbnail_width, thumbnail_height,
                               version, width, height)
            SELECT id, image_id, 0, thumbnail, thumbnail_format, thumbnail_width, thumbnail_height, photo_version, photo_width, photo_height
            FROM Trip WHERE image_id IS NOT NULL AND thumbnail IS NOT NULL AND photo_version IS NOT NULL ORDER BY id;
            \(photoCounts);
            INSERT INTO DeletedPhoto (deletion_id, id, trip_id, image_id, position, thumbnail, thumbnail_format, thumbnail_width,
                                      thumbnail_height, version, width, height)
            SELECT deletion_id, deletion_id, id, image_id, 0, thumbnail, thumbnail_format, thumbnail_width, thumbnail_height,
                   photo_version, photo_width, photo_height
            FROM DeletedTrip WHERE image_id IS NOT NULL AND thumbnail IS NOT NULL AND photo_version IS NOT NULL;

            DROP TRIGGER Trip_image_replaced;
            DROP TRIGGER Trip_deleted;
            CREATE TRIGGER Trip_deleted AFTER DELETE ON Trip BEGIN
                INSERT INTO TripSearch(TripSearch, rowid, name_folded) VALUES ('delete', OLD.id, OLD.name_folded);
                UPDATE Goal SET completed_count = completed_count - 1
                    WHERE OLD.is_complete AND (kind = 'trips' OR collection = OLD.collection);
            END;
            \(galleryTriggers(copying: CoverColumns.withThumbnail))
            """)
    }

    /// The triggers that keep each trip's cover and photo count in step with its gallery,
    /// copying `columns` (what the Photo and Trip tables hold at the migration that makes them).
    private static func galleryTriggers(copying columns: CoverColumns) -> String {
        """
        CREATE TRIGGER Photo_added AFTER INSERT ON Photo BEGIN
            UPDATE Trip SET photo_count = photo_count + 1 WHERE id = NEW.trip_id;
            \(coverFromGallery(tripID: "NEW.trip_id", copying: columns));
        END;
        CREATE TRIGGER Photo_moved AFTER UPDATE OF position ON Photo BEGIN
            \(coverFromGallery(tripID: "NEW.trip_id", copying: columns));
        END;
        CREATE TRIGGER Photo_removed AFTER DELETE ON Photo BEGIN
            UPDATE Trip SET photo_count = photo_count - 1 WHERE id = OLD.trip_id;
            \(coverFromGallery(tripID: "OLD.trip_id", copying: columns));
            DELETE FROM TripImage WHERE id = OLD.image_id AND \(imageUnused("OLD.image_id"));
        END;
        """
    }

    /// A thumbnail is the image's, stored once on its TripImage row: before, every photo, cover
    /// and copy kept for undo held its own, so an archive naming one picture from 10,000 trips
    /// wrote it 20,000 times. The triggers copying the cover are made again without it.
    static let thumbnailsOncePerImage = Migration(version: 13, name: "a thumbnail stored once per image") { connection in
        let holders = ["Photo", "DeletedPhoto", "Trip", "DeletedTrip"]
        try connection.execute("""
            ALTER TABLE TripImage ADD COLUMN thumbnail BLOB;
            ALTER TABLE TripImage ADD COLUMN thumbnail_format TEXT;
            DROP TRIGGER Photo_added;
            DROP TRIGGER Photo_moved;
            DROP TRIGGER Photo_removed;
            """)
        for table in holders {
            try connection.execute("""
                UPDATE TripImage SET (thumbnail, thumbnail_format) =
                    (SELECT thumbnail, thumbnail_format FROM \(table) WHERE image_id = TripImage.id AND thumbnail IS NOT NULL LIMIT 1)
                WHERE thumbnail IS NULL;
                ALTER TABLE \(table) DROP COLUMN thumbnail;
                ALTER TABLE \(table) DROP COLUMN thumbnail_format;
                """)
        }
        try connection.execute(galleryTriggers(copying: CoverColumns.current))
    }

    /// Photo's columns after its id and trip (DeletedPhoto copies them whole).
    static let galleryColumns = """
        image_id, position, caption, taken_at, thumbnail_width, thumbnail_height, version, width, height
        """

    /// Both tables' columns after `image_id`.
    private static let galleryColumnDefinitions = """
        position INTEGER NOT NULL,
                caption TEXT NOT NULL DEFAULT '',
                taken_at TEXT,
                thumbnail BLOB NOT NULL,
                thumbnail_format TEXT NOT NULL,
                thumbnail_width INTEGER NOT NULL,
                thumbnail_height INTEGER NOT NULL,
                version TEXT NOT NULL,
                width INTEGER NOT NULL,
                height INTEGER NOT NULL
        """

    /// Every trip's `photo_count` counted again.
    static let photoCounts = "UPDATE Trip SET photo_count = (SELECT count(*) FROM Photo WHERE trip_id = Trip.id)"

    /// Copies the first photo of the trip `tripID` (an SQL expression) onto its row: its cover.
    /// A trip whose cover is already that image is left alone, so adding a photo at the end
    /// changes no trip row (and no list showing trips).
    static func coverFromGallery(tripID: String, copying columns: CoverColumns = .current) -> String {
        let first = "FROM Photo WHERE trip_id = Trip.id ORDER BY position, id LIMIT 1"
        return """
            UPDATE Trip SET (\(columns.trip)) = (SELECT \(columns.photo) \(first))
            WHERE id = \(tripID) AND image_id IS NOT (SELECT image_id \(first))
            """
    }

    /// The cover's columns on the Trip row and where they come from on the Photo row.
    struct CoverColumns {
        let trip: String
        let photo: String

        static let current = CoverColumns(
            trip: "thumbnail_width, thumbnail_height, photo_version, photo_width, photo_height, image_id",
            photo: "thumbnail_width, thumbnail_height, version, width, height, image_id")
        /// Before `thumbnailsOncePerImage`, each row held its thumbnail's bytes too.
        static let withThumbnail = CoverColumns(trip: "thumbnail, thumbnail_format, " + current.trip,
                                                photo: "thumbnail, thumbnail_format, " + current.photo)
    }

    /// SQL true when no photo, nor a copy kept for undo, shows the image `imageID` (an SQL expression).
    static func imageUnused(_ imageID: String) -> String {
        """
        NOT EXISTS (SELECT 1 FROM Photo WHERE image_id = \(imageID))
            AND NOT EXISTS (SELECT 1 FROM DeletedPhoto WHERE image_id = \(imageID))
        """
    }
}
