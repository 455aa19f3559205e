/// How much the wishlist holds, counted as an `ArchivePreview` counts an archive: what an import
/// would replace.
public struct WishlistContents: Hashable, Sendable {
    public let trips: Int
    public let activities: Int
    /// Distinct photos its trips show.
    public let photos: Int
}

extension WishlistQuery where Value == WishlistContents {
    public static var contents: Self {
        Self { connection in
            let row = try connection.fetchOne("""
                SELECT (SELECT count(*) FROM Trip) AS trips, (SELECT count(*) FROM Activity) AS activities,
                       (SELECT count(DISTINCT image_id) FROM Photo) AS photos
                """)
            return WishlistContents(trips: row?["trips"] ?? 0, activities: row?["activities"] ?? 0, photos: row?["photos"] ?? 0)
        }
    }
}
