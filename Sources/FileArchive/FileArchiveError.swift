/// Why an archive file cannot be written or read, naming the entry when there is one.
public struct FileArchiveError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The entry's name as stored in the archive, empty for the file as a whole.
    public let entry: String
    public let message: String

    public init(entry: String = "", _ message: String) {
        self.entry = entry
        self.message = message
    }

    public var description: String { entry.isEmpty ? message : "\(entry): \(message)" }
}
