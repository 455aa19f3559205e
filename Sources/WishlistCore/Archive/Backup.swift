import Foundation
import Persistence

/// How far an export or import has come, in items (trips plus activities), for progress displays.
public struct ArchiveProgress: Hashable, Sendable {
    public let itemsDone: Int
    public let itemsTotal: Int
}

/// What an import brought in.
public struct ImportSummary: Hashable, Sendable {
    public let trips: Int
    public let activities: Int
}

/// A problem in an archive file, with where it is: "trips[12].activities[3].name: must not be empty".
public struct ArchiveError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A path into the document ("trips[12].activities[3].name"), empty for the file as a whole.
    public let location: String
    public let message: String

    public var description: String { location.isEmpty ? message : "\(location): \(message)" }
}

/// Export and import of the whole wishlist as one JSON document (docs/EXPORT-FORMAT.md).
public struct Backup: Sendable {
    public static let importAuthor = "import"
    let store: WishlistStore

    public init(store: WishlistStore) {
        self.store = store
    }

    /// Writes every trip, activity, goal and preference, as of one moment, to `url`.
    public func export(to url: URL, progress: (ArchiveProgress) -> Void = { _ in }) throws {
        try store.database.read { connection in
            let total = try connection.fetchScalar(Int.self, "SELECT (SELECT count(*) FROM Trip) + (SELECT count(*) FROM Activity)") ?? 0
            let writer = try ArchiveWriter(
                url: url, exportedAt: .nowToTheMillisecond,
                preferences: ArchivePreferences(activitySortOrder: try WishlistQuery.activitySortOrder.fetch(connection)),
                goals: try connection.fetchAll(Goal.self, "SELECT * FROM Goal ORDER BY sort_order").map(ArchiveGoal.init))
            var done = 0
            progress(ArchiveProgress(itemsDone: done, itemsTotal: total))
            try ArchiveExporter.forEachBatch(on: connection) { trips in
                for trip in trips {
                    try writer.write(trip)
                    done += 1 + trip.activities.count
                }
                progress(ArchiveProgress(itemsDone: done, itemsTotal: total))
            }
            try writer.finish()
        }
    }

    /// Replaces the whole wishlist with the archive at `url`, in one transaction (author "import"):
    /// a file with any problem changes nothing and throws an `ArchiveError` naming the first one.
    @discardableResult
    public func `import`(from url: URL, progress: (ArchiveProgress) -> Void = { _ in }) throws -> ImportSummary {
        let archive = try Self.read(url)
        let total = archive.trips.reduce(0) { $0 + 1 + $1.activities.count }
        return try store.database.write(author: Self.importAuthor) { connection in
            try connection.execute("DELETE FROM Activity; DELETE FROM Trip; DELETE FROM TripImage")
            var inserter = try ArchiveInserter(on: connection, importTime: Date.nowToTheMillisecond)
            var done = 0
            var nextReport = 0
            for trip in archive.trips {
                if done >= nextReport {
                    progress(ArchiveProgress(itemsDone: done, itemsTotal: total))
                    nextReport = done + 10_000
                }
                try inserter.insert(trip)
                done += 1 + trip.activities.count
            }
            try inserter.finish()
            // Progress was recomputed by the triggers; achievement dates are history worth keeping.
            for goal in archive.goals ?? [] {
                guard let dateAchieved = goal.dateAchieved else { continue }
                try connection.execute("UPDATE Goal SET date_achieved = ? WHERE badge = ? AND is_achieved", [dateAchieved, goal.badge])
            }
            if let order = archive.preferences?.activitySortOrder {
                try Preferences.set(.activitySortOrder, to: order.rawValue, on: connection)
            }
            try Preferences.set(.seeded, to: "true", on: connection)
            progress(ArchiveProgress(itemsDone: total, itemsTotal: total))
            return ImportSummary(trips: archive.trips.count, activities: total - archive.trips.count)
        }
    }

    /// The decoded, validated archive, or an `ArchiveError` for the first problem.
    static func read(_ url: URL) throws -> Archive {
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw ArchiveError(location: "", message: "cannot read \(url.path): \(error.localizedDescription)")
        }
        do {
            return try JSONDecoder.archive.decode(Archive.self, from: data)
        } catch let error as DecodingError {
            throw ArchiveError(error, in: data)
        }
    }
}

/// Reads trips with their activities in id order, a batch at a time, so that memory stays
/// flat however large the wishlist is. Runs inside one read transaction: one consistent moment.
enum ArchiveExporter {
    static let batchSize = 500

    static func forEachBatch(on connection: Connection, _ body: ([ArchiveTrip]) throws -> Void) throws {
        var lastID: Int64 = 0
        while true {
            let trips = try connection.fetchAll("""
                SELECT id, name, subtitle, collection, creation_date FROM Trip WHERE id > ? ORDER BY id LIMIT ?
                """, [lastID, batchSize])
            guard let first = trips.first, let last = trips.last else { return }
            let firstID: Int64 = first["id"]
            lastID = last["id"]
            var activities: [Int64: [ArchiveActivity]] = [:]
            for row in try connection.fetchAll("""
                SELECT trip_id, name, is_complete, date_created, date_edited FROM Activity
                WHERE trip_id BETWEEN ? AND ? ORDER BY trip_id, id
                """, [firstID, lastID]) {
                activities[row["trip_id"], default: []].append(ArchiveActivity(
                    name: row["name"], isComplete: row["is_complete"], dateCreated: row["date_created"], dateEdited: row["date_edited"]))
            }
            try body(trips.map { row in
                ArchiveTrip(name: row["name"], subtitle: row["subtitle"], collection: row["collection"],
                            creationDate: row["creation_date"], activities: activities[row["id"]] ?? [])
            })
        }
    }
}

extension ArchiveError {
    /// Names the place in the document the way a person would look for it.
    init(_ error: DecodingError, in data: Data) {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.reduce("") { path, key in
                if let index = key.intValue { return path + "[\(index)]" }
                return path.isEmpty ? key.stringValue : path + "." + key.stringValue
            }
        }
        switch error {
        case .keyNotFound(let key, let context):
            self.init(location: path(context.codingPath + [key]), message: "is missing")
        case .valueNotFound(_, let context):
            self.init(location: path(context.codingPath), message: "must not be null")
        case .typeMismatch(let type, let context):
            self.init(location: path(context.codingPath), message: "must be \(Self.describe(type))")
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            self.init(location: "", message: Self.syntaxProblem(in: data))
        case .dataCorrupted(let context):
            self.init(location: path(context.codingPath), message: context.debugDescription)
        @unknown default:
            self.init(location: "", message: "\(error)")
        }
    }

    /// JSONDecoder only says "not valid JSON"; JSONSerialization tells what and at which byte,
    /// which becomes a line and column a person can find in an editor.
    private static func syntaxProblem(in data: Data) -> String {
        let summary = "the file is not valid JSON"
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
            return summary
        } catch {
            guard let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String else { return summary }
            guard let match = detail.firstMatch(of: /(.*) around character (\d+)\.?/), let offset = Int(match.2) else {
                return "\(summary): \(detail)"
            }
            let before = data.prefix(offset)
            let line = before.count { $0 == UInt8(ascii: "\n") } + 1
            let column = offset - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
            return "\(summary): \(match.1) at line \(line), column \(column)"
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "text"
        case is Bool.Type: "true or false"
        case is Int.Type: "a whole number"
        case is [String: Any].Type: "an object"
        case is any Collection.Type: "a list"
        default: "an object"
        }
    }
}
