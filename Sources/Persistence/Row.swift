/// One result row: column names and their values, detached from the statement that read it.
/// The decoding functions are `@inlinable` so that records in other modules get them specialized
/// for each column type (unspecialized, looking up generic metadata per value was a visible share
/// of a page: Benchmarks/README.md).
public struct Row: Sendable, Hashable {
    public let columnNames: [String]
    public let values: [DatabaseValue]

    public init(columnNames: [String], values: [DatabaseValue]) {
        precondition(columnNames.count == values.count, "a row needs one value per column")
        self.columnNames = columnNames
        self.values = values
    }

    public var count: Int { values.count }

    /// The index of a column; SQLite compares column names without regard to ASCII case.
    @inlinable
    public func index(of column: String) -> Int? {
        columnNames.firstIndex(of: column)
            ?? columnNames.firstIndex { $0.lowercased() == column.lowercased() }
    }

    /// The value of `column` as `T`. A missing column or a value that is not a `T` is a
    /// programming error (the SQL and the record disagree): it stops with a message naming both.
    @inlinable
    public subscript<T: DatabaseValueConvertible>(_ column: String) -> T {
        do { return try decode(column, as: T.self) } catch { preconditionFailure("\(error)") }
    }

    /// The value at a column index as `T`; stops on a mismatch like the name subscript.
    @inlinable
    public subscript<T: DatabaseValueConvertible>(_ index: Int) -> T {
        do { return try decode(at: index, as: T.self) } catch { preconditionFailure("\(error)") }
    }

    /// The throwing variant of the subscript, for values that may legitimately be malformed.
    @inlinable
    public func decode<T: DatabaseValueConvertible>(_ column: String, as type: T.Type = T.self) throws -> T {
        guard let index = index(of: column) else {
            throw RowDecodingError.missingColumn(column, available: columnNames)
        }
        return try decode(at: index, as: type)
    }

    @inlinable
    public func decode<T: DatabaseValueConvertible>(at index: Int, as type: T.Type = T.self) throws -> T {
        guard values.indices.contains(index) else {
            throw RowDecodingError.missingColumn("#\(index)", available: columnNames)
        }
        guard let value = T.fromDatabaseValue(values[index]) else {
            throw RowDecodingError.typeMismatch(column: columnNames[index], type: "\(T.self)", value: values[index])
        }
        return value
    }
}

public enum RowDecodingError: Error, CustomStringConvertible, Sendable {
    case missingColumn(String, available: [String])
    case typeMismatch(column: String, type: String, value: DatabaseValue)

    public var description: String {
        switch self {
        case .missingColumn(let column, let available):
            "no column \"\(column)\" in the row (columns: \(available.joined(separator: ", ")))"
        case .typeMismatch(let column, let type, let value):
            "column \"\(column)\" holds \(value), which is not a \(type)"
        }
    }
}

/// A type built from a row, e.g. `try connection.fetchAll(Item.self, "SELECT * FROM item")`.
public protocol FetchableRecord {
    init(row: Row) throws
}
