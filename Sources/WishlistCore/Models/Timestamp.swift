import Foundation

/// Where the store's dates come from (creation and edit dates, the seed's, an import's and an
/// export's): the system clock, or a test's own, so that pages and dates can be compared
/// exactly. Each date is rounded to the millisecond: archives keep milliseconds, so every date
/// the app stores survives an export and import unchanged.
public struct DateSource: Sendable {
    private let read: @Sendable () -> Date

    public init(_ read: @escaping @Sendable () -> Date) {
        self.read = read
    }

    public static let system = DateSource { Date() }

    public func now() -> Date {
        Date(timeIntervalSince1970: (read().timeIntervalSince1970 * 1000).rounded() / 1000)
    }
}
