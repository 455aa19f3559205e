import Foundation

/// One SQLite value, exactly as the storage classes of SQLite define them.
public enum DatabaseValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// A Swift type that converts to and from a `DatabaseValue`: how values are bound as SQL
/// parameters and read back from rows.
public protocol DatabaseValueConvertible: Sendable {
    var databaseValue: DatabaseValue { get }
    /// The value, or nil when `value` cannot represent this type.
    static func fromDatabaseValue(_ value: DatabaseValue) -> Self?
}

extension DatabaseValue: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { self }
    @inlinable public static func fromDatabaseValue(_ value: DatabaseValue) -> DatabaseValue? { value }
}

extension Int64: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(self) }
    @inlinable public static func fromDatabaseValue(_ value: DatabaseValue) -> Int64? {
        switch value {
        case .integer(let integer): integer
        // A column with REAL affinity stores whole numbers as reals.
        case .real(let real): Int64(exactly: real)
        default: nil
        }
    }
}

extension Int: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
    @inlinable public static func fromDatabaseValue(_ value: DatabaseValue) -> Int? {
        Int64.fromDatabaseValue(value).flatMap { Int(exactly: $0) }
    }
}

extension Double: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .real(self) }
    @inlinable public static func fromDatabaseValue(_ value: DatabaseValue) -> Double? {
        switch value {
        case .real(let real): real
        case .integer(let integer): Double(integer)
        default: nil
        }
    }
}

extension Bool: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }
    @inlinable public static func fromDatabaseValue(_ value: DatabaseValue) -> Bool? {
        Int64.fromDatabaseValue(value).map { $0 != 0 }
    }
}

extension String: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .text(self) }
    @inlinable public static func fromDatabaseValue(_ value: DatabaseValue) -> String? {
        if case .text(let text) = value { text } else { nil }
    }
}

extension Array: DatabaseValueConvertible where Element == UInt8 {
    public var databaseValue: DatabaseValue { .blob(self) }
    @inlinable public static func fromDatabaseValue(_ value: DatabaseValue) -> [UInt8]? {
        if case .blob(let bytes) = value { bytes } else { nil }
    }
}

extension Data: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .blob([UInt8](self)) }
    @inlinable public static func fromDatabaseValue(_ value: DatabaseValue) -> Data? {
        if case .blob(let bytes) = value { Data(bytes) } else { nil }
    }
}

/// Stored as a real number of seconds since 1970: sortable, compact, and readable with
/// SQLite's own date functions (`datetime(column, 'unixepoch')`).
extension Date: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .real(timeIntervalSince1970) }
    @inlinable public static func fromDatabaseValue(_ value: DatabaseValue) -> Date? {
        Double.fromDatabaseValue(value).map { Date(timeIntervalSince1970: $0) }
    }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { self?.databaseValue ?? .null }
    @inlinable public static func fromDatabaseValue(_ value: DatabaseValue) -> Wrapped?? {
        if case .null = value { return .some(nil) }
        return Wrapped.fromDatabaseValue(value).map { .some($0) }
    }
}

/// Enums with a raw value get the conversion for free: `enum Kind: String, DatabaseValueConvertible`.
extension DatabaseValueConvertible where Self: RawRepresentable, RawValue: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { rawValue.databaseValue }
    @inlinable public static func fromDatabaseValue(_ value: DatabaseValue) -> Self? {
        RawValue.fromDatabaseValue(value).flatMap(Self.init(rawValue:))
    }
}
