import Foundation

/// Dates in archives: UTC with milliseconds, "2026-11-29T14:03:00.125Z". Written and read by
/// hand because a million of them must take milliseconds, not seconds, and because
/// `ISO8601FormatStyle` truncates (a stored 0.916 s may come back as 0.915).
enum ArchiveDate {
    static func string(from date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (days, millisecondOfDay) = floorDivide(milliseconds, 86_400_000)
        let (year, month, day) = civil(fromDays: days)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        func append(_ value: Int64, digits: Int) {
            var divisor: Int64 = 1
            for _ in 1..<digits { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8((value / divisor) % 10))
                divisor /= 10
            }
        }
        append(year, digits: 4); bytes.append(UInt8(ascii: "-"))
        append(month, digits: 2); bytes.append(UInt8(ascii: "-"))
        append(day, digits: 2); bytes.append(UInt8(ascii: "T"))
        append(millisecondOfDay / 3_600_000, digits: 2); bytes.append(UInt8(ascii: ":"))
        append(millisecondOfDay / 60_000 % 60, digits: 2); bytes.append(UInt8(ascii: ":"))
        append(millisecondOfDay / 1000 % 60, digits: 2); bytes.append(UInt8(ascii: "."))
        append(millisecondOfDay % 1000, digits: 3); bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads "YYYY-MM-DDTHH:MM:SS[.fraction]Z"; digits past the millisecond are ignored.
    static func date(from string: String) -> Date? {
        let bytes = Array(string.utf8)
        guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            return value
        }
        let separators: [(Int, Character)] = [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":")]
        guard separators.allSatisfy({ bytes[$0.0] == $0.1.asciiValue }),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              hour < 24, minute < 60, second < 60
        else { return nil }
        var millisecond: Int64 = 0
        if bytes.count > 20 {
            let fraction = 20..<(bytes.count - 1)
            guard bytes[19] == UInt8(ascii: "."), (1...9).contains(fraction.count), let digits = number(fraction) else { return nil }
            millisecond = fraction.count > 3 ? digits / pow10(fraction.count - 3) : digits * pow10(3 - fraction.count)
        } else if bytes.count != 20 {
            return nil
        }
        let days = self.days(fromYear: year, month: month, day: day)
        // Rejects days that do not exist (February 30): they would come back as another date.
        guard (1...12).contains(month), civil(fromDays: days) == (year, month, day) else { return nil }
        let total = ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millisecond
        return Date(timeIntervalSince1970: Double(total) / 1000)
    }

    private static func pow10(_ exponent: Int) -> Int64 {
        (0..<exponent).reduce(1) { value, _ in value * 10 }
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let quotient = value >= 0 ? value / divisor : (value - divisor + 1) / divisor
        return (quotient, value - quotient * divisor)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func days(fromYear year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400).quotient
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = floorDivide(z, 146_097).quotient
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
