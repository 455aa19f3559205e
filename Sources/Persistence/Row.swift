import Synchronization

/// One result row: column names and their values, detached from the statement that read it.
/// The decoding functions are `@inlinable` so that records in other modules get them specialized
/// for each column type (unspecialized, looking up generic metadata per value was a visible share
/// of a page: Benchmarks/README.md).
public struct Row: Sendable, Hashable {
    public let columns: RowColumns
    public let values: [DatabaseValue]

    public init(columnNames: [String], values: [DatabaseValue]) {
        self.init(columns: RowColumns(names: columnNames), values: values)
    }

    public init(columns: RowColumns, values: [DatabaseValue]) {
        precondition(columns.names.count == values.count, "a row needs one value per column")
        self.columns = columns
        self.values = values
    }

    public var columnNames: [String] { columns.names }
    public var count: Int { values.count }

    /// The index of a column; SQLite compares column names without regard to ASCII case.
    @inlinable
    public func index(of column: String) -> Int? {
        columns.index(of: column)
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

/// The columns of a result, shared by all its rows: a record decoding a row by column names
/// looks each up in a table made once per statement, not by comparing names (decoding the
/// Wishlist screen's 45 trips had been most of reading it).
public final class RowColumns: Sendable, Hashable {
    public let names: [String]
    @usableFromInline let positions: [String: Int]
    /// The index found last. Records read their columns in the order they select them, so the
    /// column asked for next is most often the one after it (or the first, for the next row),
    /// and one comparison of names spares hashing one (a fifth of reading the Wishlist screen
    /// again after a commit). Rows decoded on several threads at once only guess worse.
    @usableFromInline let lastFound = Atomic<Int>(-1)
    /// False for a column whose name an earlier column has: the lookup finds that one instead.
    @usableFromInline let isFirstOfItsName: [Bool]

    public init(names: [String]) {
        self.names = names
        var positions: [String: Int] = [:]
        // The first of two columns of one name wins, as SQLite's own lookup by name does.
        for (index, name) in names.enumerated().reversed() { positions[name] = index }
        self.positions = positions
        isFirstOfItsName = names.indices.map { positions[names[$0]] == $0 }
    }

    @inlinable
    public func index(of column: String) -> Int? {
        guard !names.isEmpty else { return nil }
        let next = (lastFound.load(ordering: .relaxed) &+ 1) % names.count
        if isFirstOfItsName[next], names[next] == column {
            lastFound.store(next, ordering: .relaxed)
            return next
        }
        guard let index = positions[column] ?? names.firstIndex(where: { $0.lowercased() == column.lowercased() }) else { return nil }
        lastFound.store(index, ordering: .relaxed)
        return index
    }

    public static func == (lhs: RowColumns, rhs: RowColumns) -> Bool { lhs === rhs || lhs.names == rhs.names }
    public func hash(into hasher: inout Hasher) { hasher.combine(names) }
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
