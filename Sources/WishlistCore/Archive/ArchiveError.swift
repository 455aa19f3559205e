import Foundation

/// A problem in an archive file, with where it is: "trips[12].activities[3].name: must not be empty".
public struct ArchiveError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A path into the document ("trips[12].activities[3].name"), empty for the file as a whole.
    public let location: String
    public let message: String

    public var description: String { location.isEmpty ? message : "\(location): \(message)" }
}

extension ArchiveError {
    /// Names the place in the document the way a person would look for it.
    init(_ error: DecodingError, in data: Data) {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.reduce("") { path, key in
                if let index = key.intValue { return path + "[\(index)]" }
                return path.isEmpty ? key.stringValue : path + "." + key.stringValue
            }
        }
        switch error {
        case .keyNotFound(let key, let context):
            self.init(location: path(context.codingPath + [key]), message: "is missing")
        case .valueNotFound(_, let context):
            self.init(location: path(context.codingPath), message: "must not be null")
        case .typeMismatch(let type, let context):
            self.init(location: path(context.codingPath), message: "must be \(Self.describe(type))")
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            self.init(location: "", message: Self.syntaxProblem(in: data))
        case .dataCorrupted(let context):
            self.init(location: path(context.codingPath), message: context.debugDescription)
        @unknown default:
            self.init(location: "", message: "\(error)")
        }
    }

    /// JSONDecoder only says "not valid JSON"; JSONSerialization tells what and at which byte,
    /// which becomes a line and column a person can find in an editor.
    private static func syntaxProblem(in data: Data) -> String {
        let summary = "the file is not valid JSON"
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
            return summary
        } catch {
            guard let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String else { return summary }
            guard let match = detail.firstMatch(of: /(.*) around character (\d+)\.?/), let offset = Int(match.2) else {
                return "\(summary): \(detail)"
            }
            let before = data.prefix(offset)
            let line = before.count { $0 == UInt8(ascii: "\n") } + 1
            let column = offset - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
            return "\(summary): \(match.1) at line \(line), column \(column)"
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "text"
        case is Bool.Type: "true or false"
        case is Int.Type: "a whole number"
        case is [String: Any].Type: "an object"
        case is any Collection.Type: "a list"
        default: "an object"
        }
    }
}
