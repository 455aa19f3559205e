import Persistence

extension Schema {
    /// The map reads every trip with a position: this index answers its count and its pins
    /// (grouped by position past the pin limit) without visiting the trip rows.
    static let tripPositions = Migration(version: 8, name: "index of trip positions") { connection in
        try connection.execute("""
            CREATE INDEX Trip_by_position ON Trip(latitude, longitude, destination) WHERE latitude IS NOT NULL;
            """)
    }
}
