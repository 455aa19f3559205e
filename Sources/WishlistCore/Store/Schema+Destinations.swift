import Persistence

extension Schema {
    /// SampleTrips' fields: a destination (its name, and for a picked place its position and the
    /// gazetteer's opaque identifier as JSON) and start and end dates as `YYYY-MM-DD` text.
    /// Existing trips have none of them and keep working. `place` is declared a codable attribute,
    /// so no query builder filters or sorts by it. Search reads the destination through
    /// `name_folded` (`TripFields.searchText`), which the app writes, since SQLite cannot fold accents.
    static let destinations = Migration(version: 5, name: "trip destinations and dates") { connection in
        try connection.execute("""
            ALTER TABLE Trip ADD COLUMN destination TEXT;
            ALTER TABLE Trip ADD COLUMN latitude REAL CHECK (latitude BETWEEN -90 AND 90);
            ALTER TABLE Trip ADD COLUMN longitude REAL CHECK (longitude BETWEEN -180 AND 180);
            ALTER TABLE Trip ADD COLUMN place \(CodableAttributeColumn.declaredType);
            ALTER TABLE Trip ADD COLUMN start_date TEXT;
            ALTER TABLE Trip ADD COLUMN end_date TEXT CHECK (end_date >= start_date);
            CREATE INDEX Trip_by_start_date ON Trip(start_date, id);
            CREATE INDEX Trip_by_destination ON Trip(destination, start_date, id);
            """)
        try refoldNamesWithStrokedLetters(on: connection)
    }

    /// Names with a stroked letter ("Tromsø") were folded keeping it until `String.folded` took
    /// it off: fold them again, so "tromso" finds them (the triggers reindex what changes).
    /// Trips have no destination yet, so their search text is their folded name.
    private static func refoldNamesWithStrokedLetters(on connection: Connection) throws {
        let letters = Set(String.strokedLetters.keys.flatMap { [String($0), String($0).uppercased()] }).sorted()
        let anyLetter = letters.map { _ in "instr(name, ?) > 0" }.joined(separator: " OR ")
        for table in ["Trip", "Activity"] {
            for row in try connection.fetchAll("SELECT id, name FROM \(table) WHERE \(anyLetter)", letters) {
                let name: String = row["name"]
                try connection.execute("UPDATE \(table) SET name_folded = ? WHERE id = ?", [name.folded, row["id"] as Int64])
            }
        }
    }
}
