import Persistence

extension Schema {
    /// Trip search reads the subtitle and the collection's name too (`TripFields.searchText`):
    /// every trip's search text is written again, with the triggers set aside and the indexes
    /// rebuilt once after, as a bulk import does.
    static let searchedFields = Migration(version: 10, name: "trip search reads subtitles and collections") { connection in
        try withoutTriggers(on: connection) {
            let update = try connection.prepare("UPDATE Trip SET name_folded = ? WHERE id = ?")
            for row in try connection.fetchAll("SELECT id, name, destination, subtitle, collection FROM Trip") {
                let text = TripFields.searchText(name: row["name"], destination: row["destination"], subtitle: row["subtitle"],
                                                 collection: TripCollection(rawValue: row["collection"]))
                try update.execute([text, row["id"] as Int64])
            }
        }
    }
}
