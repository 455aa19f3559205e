import Foundation
import Persistence

/// A day on the calendar, without a time or a time zone: a trip starts on 12 April wherever the
/// traveller is. Written and stored as ISO 8601 `YYYY-MM-DD`, the value of `<input type="date">`,
/// so stored dates sort as text.
public struct CalendarDate: Hashable, Comparable, Sendable, LosslessStringConvertible, Codable {
    public let year: Int
    public let month: Int
    public let day: Int

    /// nil unless `year`-`month`-`day` is a real day (no 31 April, 29 February only in leap years).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...Self.days(inMonth: month, year: year)).contains(day) else { return nil }
        (self.year, self.month, self.day) = (year, month, day)
    }

    /// Parses exactly `YYYY-MM-DD` (read straight from the bytes: every trip row fetched has two).
    public init?(_ description: String) {
        var text = description
        let parsed: (Int, Int, Int)? = text.withUTF8 { bytes in
            guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
            func number(_ range: Range<Int>) -> Int? {
                var value = 0
                for index in range {
                    let digit = Int(bytes[index]) - Int(UInt8(ascii: "0"))
                    guard (0...9).contains(digit) else { return nil }
                    value = value * 10 + digit
                }
                return value
            }
            guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
            return (year, month, day)
        }
        guard let (year, month, day) = parsed else { return nil }
        self.init(year: year, month: month, day: day)
    }

    public var description: String {
        String(format: "%04d-%02d-%02d", year, month, day)
    }

    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let date = CalendarDate(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a YYYY-MM-DD date: \(text)"))
        }
        self = date
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    private static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

extension CalendarDate: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .text(description) }

    public static func fromDatabaseValue(_ value: DatabaseValue) -> CalendarDate? {
        guard case .text(let text) = value else { return nil }
        return CalendarDate(text)
    }
}

extension CalendarDate {
    /// "6 Apr 2027", as the app writes a day everywhere (in English, spelled out: going through
    /// `formatted` loads ICU's locale data, megabytes of memory for one format).
    public var dayText: String {
        "\(day) \(Self.monthAbbreviations[month - 1]) \(year)"
    }

    public static let monthAbbreviations = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
