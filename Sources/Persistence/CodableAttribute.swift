import Foundation

/// A `Codable` value the database keeps as it is: its JSON encoding in one TEXT column, decoded
/// on fetch. The encoded text is opaque to SQL, so the value is for carrying, not for querying:
/// declare its column `CodableAttributeColumn.declaredType` and `FetchDescriptor` refuses to
/// filter, sort or section by it. A stored value that no longer decodes makes `Row.decode` throw, so
/// a caller decoding it with `try?` keeps the rest of its row.
public struct CodableAttribute<Value: Codable & Hashable & Sendable>: Hashable, Sendable, DatabaseValueConvertible {
    public var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    public var databaseValue: DatabaseValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Encoding a Codable & Hashable value fails only for values JSON cannot hold (NaN).
        guard let data = try? encoder.encode(value) else { return .null }
        return .text(String(decoding: data, as: UTF8.self))
    }

    public static func fromDatabaseValue(_ value: DatabaseValue) -> CodableAttribute? {
        guard case .text(let text) = value,
              let decoded = try? JSONDecoder().decode(Value.self, from: Data(text.utf8)) else { return nil }
        return CodableAttribute(decoded)
    }
}
