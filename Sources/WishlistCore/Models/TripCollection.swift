import Persistence

/// The four seasonal collections a trip belongs to. The raw values are stored in the database
/// and in archives, so they never change.
public enum TripCollection: String, CaseIterable, Codable, Sendable, DatabaseValueConvertible {
    case springEscapes
    case summerVibes
    case fallGetaways
    case winterRetreats

    public var title: String {
        switch self {
        case .springEscapes: "Spring Escapes"
        case .summerVibes: "Summer Vibes"
        case .fallGetaways: "Fall Getaways"
        case .winterRetreats: "Winter Retreats"
        }
    }

    /// Only Summer Vibes has a summary in the design this app mirrors.
    public var summary: String? {
        self == .summerVibes ? "Soak up open roads, salt water, and endless daylight" : nil
    }

    /// The season as a lower-case word, used in goal names, subtitles and badge names.
    public var season: String {
        switch self {
        case .springEscapes: "spring"
        case .summerVibes: "summer"
        case .fallGetaways: "fall"
        case .winterRetreats: "winter"
        }
    }
}
