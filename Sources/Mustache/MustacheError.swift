/// A template that cannot be parsed, or cannot be rendered.
public struct MustacheError: Error, Equatable, CustomStringConvertible {
    /// The template's name (its path relative to the library, without extension), or "" for an unnamed one.
    public let templateName: String
    /// 1-based line of the offending tag, when the error points at one.
    public let line: Int?
    public let message: String

    public init(templateName: String, line: Int?, message: String) {
        self.templateName = templateName
        self.line = line
        self.message = message
    }

    public var description: String {
        let name = templateName.isEmpty ? "template" : "template '\(templateName)'"
        guard let line else { return "\(name): \(message)" }
        return "\(name), line \(line): \(message)"
    }
}
