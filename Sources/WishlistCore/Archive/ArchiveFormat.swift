import Foundation
import Imaging

/// The JSON document of `wishlist export` / `wishlist import`, described for users in
/// docs/EXPORT-FORMAT.md. Decoding validates every value and names the first problem by its
/// path; optional fields let scripts write only what they know.
struct Archive: Codable {
    static let formatName = "wishlist-archive"
    /// 2 added trips' photos, 3 their destinations and dates, 4 their ids, 5 their galleries;
    /// older documents still import (their trips keep matching photos, have no destination, get
    /// new ids, and their one photo becomes the gallery).
    static let currentVersion = 5

    var format: String? = Archive.formatName
    var formatVersion: Int
    var exportedAt: Date?
    var preferences: ArchivePreferences?
    var goals: [ArchiveGoal]?
    var trips: [ArchiveTrip]

    init(exportedAt: Date, preferences: ArchivePreferences, goals: [ArchiveGoal], trips: [ArchiveTrip]) {
        formatVersion = Archive.currentVersion
        self.exportedAt = exportedAt
        self.preferences = preferences
        self.goals = goals
        self.trips = trips
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decodeIfPresent(String.self, forKey: .format)
        if let format, format != Archive.formatName {
            throw DecodingError.dataCorruptedError(forKey: .format, in: container,
                debugDescription: "must be \"\(Archive.formatName)\" (this is not a wishlist archive)")
        }
        formatVersion = try container.decode(Int.self, forKey: .formatVersion)
        guard (1...Archive.currentVersion).contains(formatVersion) else {
            throw DecodingError.dataCorruptedError(forKey: .formatVersion, in: container,
                debugDescription: "is \(formatVersion), but this app reads versions 1 to \(Archive.currentVersion); use a newer app")
        }
        exportedAt = try container.decodeIfPresent(Date.self, forKey: .exportedAt)
        preferences = try container.decodeIfPresent(ArchivePreferences.self, forKey: .preferences)
        goals = try container.decodeIfPresent([ArchiveGoal].self, forKey: .goals)
        trips = try container.decode([ArchiveTrip].self, forKey: .trips)
        var seen: [Int64: Int] = [:]
        for (index, trip) in trips.enumerated() {
            guard let id = trip.id else { continue }
            if let first = seen.updateValue(index, forKey: id) {
                throw DecodingError.dataCorrupted(DecodingError.Context(
                    codingPath: [CodingKeys.trips, ArchiveIndex(index), ArchiveTrip.CodingKeys.id],
                    debugDescription: "is \(id), as trips[\(first)]'s is: each trip's id is its own"))
            }
        }
    }
}

/// An array index in a decoding error's path.
struct ArchiveIndex: CodingKey {
    let intValue: Int?
    let stringValue: String
    init(_ index: Int) { intValue = index; stringValue = "Index \(index)" }
    init?(intValue: Int) { self.init(intValue) }
    init?(stringValue: String) { nil }
}

struct ArchivePreferences: Codable, Equatable {
    var activitySortOrder: ActivitySortOrder?
}

/// A goal's state. Progress is recomputed from the trips on import; the achievement date is
/// kept when the goal is still achieved afterwards.
struct ArchiveGoal: Codable, Equatable {
    var badge: String
    var name: String?
    var target: Int?
    var completedCount: Int?
    var isAchieved: Bool?
    var dateAchieved: Date?

    init(_ goal: Goal) {
        badge = goal.badge
        name = goal.name
        target = goal.target
        completedCount = goal.completedCount
        isAchieved = goal.isAchieved
        dateAchieved = goal.dateAchieved
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        badge = try container.decode(String.self, forKey: .badge)
        guard GoalCatalog.all.contains(where: { $0.badge == badge }) else {
            throw DecodingError.dataCorruptedError(forKey: .badge, in: container, debugDescription: "names no known goal: \"\(badge)\"")
        }
        name = try container.decodeIfPresent(String.self, forKey: .name)
        target = try container.decodeIfPresent(Int.self, forKey: .target)
        completedCount = try container.decodeIfPresent(Int.self, forKey: .completedCount)
        isAchieved = try container.decodeIfPresent(Bool.self, forKey: .isAchieved)
        dateAchieved = try container.decodeIfPresent(Date.self, forKey: .dateAchieved)
    }
}

/// A trip's photos in a document. Left out (no `photos`, no `photo`), the trip keeps the gallery
/// of the matching current trip, so documents written by scripts never drop photos
/// (docs/EXPORT-FORMAT.md, "What import does").
enum ArchivePhotos: Equatable {
    case keepMatching
    /// In order, the first the cover; empty for none.
    case gallery([ArchiveGalleryPhoto])
}

/// One photo of a gallery in a document.
struct ArchiveGalleryPhoto: Codable, Equatable {
    /// A stored-file name, `<sha256>.<extension>`: `photos/<name>` in a zip archive, or a photo
    /// already in the photo library for a plain document.
    var file: String
    var caption: String?
    /// When the camera took it, "2019-06-01T12:00:00" (its clock, no zone).
    var dateTaken: String?

    init(file: String, caption: String? = nil, dateTaken: String? = nil) {
        self.file = file
        self.caption = caption
        self.dateTaken = dateTaken
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        file = try container.decodePhotoFile(forKey: .file)
        caption = try container.decodeOptionalText(forKey: .caption)
        dateTaken = try container.decodeIfPresent(String.self, forKey: .dateTaken)
        if let dateTaken, !CameraDate.isValid(dateTaken) {
            throw DecodingError.dataCorruptedError(forKey: .dateTaken, in: container,
                                                   debugDescription: "must be a date and time like \"2019-06-01T12:00:00\"")
        }
    }
}

struct ArchiveTrip: Codable, Equatable {
    /// The trip's id, kept by an import (its page's address); missing: a new one.
    var id: Int64?
    var name: String
    var subtitle: String?
    var collection: TripCollection
    /// Missing: the time of the import.
    var creationDate: Date?
    var photos: ArchivePhotos
    var activities: [ArchiveActivity]
    var destination: ArchiveDestination?
    var startDate: CalendarDate?
    /// On or after `startDate`.
    var endDate: CalendarDate?

    /// Whether the document named the photo the way of versions before 5 (`photo`: one file).
    private var namedOnePhoto = false

    /// The photo files this trip names, each with where it is named ("photos[2].file").
    var namedPhotoFiles: [(location: String, file: String)] {
        guard case .gallery(let gallery) = photos else { return [] }
        return gallery.enumerated().map { (namedOnePhoto ? "photo" : "photos[\($0.offset)].file", $0.element.file) }
    }

    enum CodingKeys: String, CodingKey {
        case id, name, subtitle, collection, creationDate, photo, photos, activities, destination, startDate, endDate
    }

    init(id: Int64? = nil, name: String, subtitle: String?, collection: TripCollection, creationDate: Date,
         photos: ArchivePhotos = .keepMatching, activities: [ArchiveActivity],
         destination: TripDestination? = nil, startDate: CalendarDate? = nil, endDate: CalendarDate? = nil) {
        self.id = id
        self.name = name
        self.subtitle = subtitle
        self.collection = collection
        self.creationDate = creationDate
        self.photos = photos
        self.activities = activities
        self.destination = destination.map(ArchiveDestination.init)
        self.startDate = startDate
        self.endDate = endDate
    }

    /// What the trip row stores.
    var fields: TripFields {
        TripFields(name: name, subtitle: subtitle, collection: collection, destination: destination?.tripDestination,
                   startDate: startDate, endDate: endDate)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeIfPresent(Int64.self, forKey: .id)
        if let id, id < 1 {
            throw DecodingError.dataCorruptedError(forKey: .id, in: container, debugDescription: "must be a whole number from 1")
        }
        name = try container.decodeText(forKey: .name)
        subtitle = try container.decodeOptionalText(forKey: .subtitle)
        guard let collection = TripCollection(rawValue: try container.decode(String.self, forKey: .collection)) else {
            throw DecodingError.dataCorruptedError(forKey: .collection, in: container, debugDescription:
                "must be one of \(TripCollection.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))")
        }
        self.collection = collection
        creationDate = try container.decodeIfPresent(Date.self, forKey: .creationDate)
        if container.contains(.photos) {
            if container.contains(.photo) {
                throw DecodingError.dataCorruptedError(forKey: .photo, in: container,
                    debugDescription: "cannot be given with photos: photos lists every photo, the first the cover")
            }
            photos = .gallery(try container.decode([ArchiveGalleryPhoto].self, forKey: .photos))
        } else if !container.contains(.photo) {
            photos = .keepMatching
        } else if try container.decodeNil(forKey: .photo) {
            photos = .gallery([])
        } else {
            photos = .gallery([ArchiveGalleryPhoto(file: try container.decodePhotoFile(forKey: .photo, orNull: true))])
            namedOnePhoto = true
        }
        activities = try container.decodeIfPresent([ArchiveActivity].self, forKey: .activities) ?? []
        destination = try container.decodeIfPresent(ArchiveDestination.self, forKey: .destination)
        startDate = try container.decodeIfPresent(CalendarDate.self, forKey: .startDate)
        endDate = try container.decodeIfPresent(CalendarDate.self, forKey: .endDate)
        if let startDate, let endDate, endDate < startDate {
            throw DecodingError.dataCorruptedError(forKey: .endDate, in: container,
                debugDescription: "is before the trip's startDate (\(startDate))")
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encodeIfPresent(subtitle, forKey: .subtitle)
        try container.encode(collection, forKey: .collection)
        try container.encodeIfPresent(creationDate, forKey: .creationDate)
        if case .gallery(let gallery) = photos { try container.encode(gallery, forKey: .photos) }
        try container.encode(activities, forKey: .activities)
        try container.encodeIfPresent(destination, forKey: .destination)
        try container.encodeIfPresent(startDate, forKey: .startDate)
        try container.encodeIfPresent(endDate, forKey: .endDate)
    }
}

struct ArchiveActivity: Codable, Equatable {
    var name: String
    var isComplete: Bool
    /// Missing: the trip's creation date.
    var dateCreated: Date?
    /// Missing: the creation date.
    var dateEdited: Date?

    init(name: String, isComplete: Bool, dateCreated: Date, dateEdited: Date) {
        self.name = name
        self.isComplete = isComplete
        self.dateCreated = dateCreated
        self.dateEdited = dateEdited
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeText(forKey: .name)
        isComplete = try container.decodeIfPresent(Bool.self, forKey: .isComplete) ?? false
        dateCreated = try container.decodeIfPresent(Date.self, forKey: .dateCreated)
        dateEdited = try container.decodeIfPresent(Date.self, forKey: .dateEdited)
    }
}

extension KeyedDecodingContainer {
    /// A name under the same rules as the app's forms, trimmed.
    func decodeText(forKey key: Key) throws -> String {
        try validated(try decode(String.self, forKey: key), forKey: key)
    }

    /// A stored-file name of a photo.
    fileprivate func decodePhotoFile(forKey key: Key, orNull: Bool = false) throws -> String {
        let file = try decode(String.self, forKey: key)
        guard ImageStore.isValidName(file) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: (orNull ? "must be null or " : "must be ")
                + "a photo file name: 64 lowercase hex digits of its SHA-256, a dot and jpg, png, webp, gif or heic")
        }
        return file
    }

    /// A subtitle or caption: missing, null or blank is nil.
    fileprivate func decodeOptionalText(forKey key: Key) throws -> String? {
        guard let text = try decodeIfPresent(String.self, forKey: key), !text.allSatisfy(\.isWhitespace) else { return nil }
        return try validated(text, forKey: key)
    }

    private func validated(_ text: String, forKey key: Key) throws -> String {
        switch TextRules.check(text) {
        case .success(let text):
            return text
        case .failure(let problem):
            let message = switch problem {
            case .empty: "must not be empty"
            case .tooLong(let limit): "must be at most \(limit) characters long"
            case .controlCharacters: "must not contain line breaks or other control characters"
            case .invisibleCharacters: "must not contain invisible or text-direction characters"
            case .noncharacters: "must not contain noncharacters (such as U+FFFF)"
            }
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: message)
        }
    }
}

extension JSONEncoder {
    static var archive: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ArchiveDate.string(from: date))
        }
        return encoder
    }
}

extension JSONDecoder {
    static var archive: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            guard let date = ArchiveDate.date(from: try container.decode(String.self)) else {
                throw DecodingError.dataCorruptedError(in: container,
                    debugDescription: "must be a UTC date like \"2026-11-29T14:03:00.000Z\"")
            }
            return date
        }
        return decoder
    }
}
