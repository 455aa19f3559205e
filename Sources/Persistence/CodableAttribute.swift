import Foundation
import Synchronization

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
        guard case .text(let text) = value else { return nil }
        return DecodedAttributes.shared.value(of: Value.self, decoding: text).map(CodableAttribute.init)
    }
}

/// Values decoded from their stored JSON, by type and text: rows that carry the same value (a
/// place many trips share, a screen read again after each commit) decode it once. JSONDecoder
/// had been a tenth of reading a screen of trips. Bounded: when full, it starts over.
final class DecodedAttributes: Sendable {
    static let shared = DecodedAttributes()
    static let limit = 1024

    private struct Key: Hashable {
        let type: ObjectIdentifier
        let text: String
    }

    private let decoded = Mutex<[Key: any Sendable]>([:])

    func value<Value: Decodable & Sendable>(of type: Value.Type, decoding text: String) -> Value? {
        let key = Key(type: ObjectIdentifier(type), text: text)
        if let known = decoded.withLock({ $0[key] }) as? Value { return known }
        guard let value = try? JSONDecoder().decode(Value.self, from: Data(text.utf8)) else { return nil }
        decoded.withLock { decoded in
            if decoded.count >= Self.limit { decoded.removeAll(keepingCapacity: true) }
            decoded[key] = value
        }
        return value
    }
}
