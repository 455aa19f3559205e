import Foundation

extension Date {
    /// Now, rounded to the millisecond: archives keep milliseconds, so every date the app
    /// stores survives an export and import unchanged.
    static var nowToTheMillisecond: Date {
        Date(timeIntervalSince1970: (Date().timeIntervalSince1970 * 1000).rounded() / 1000)
    }
}
