/// A value the user entered that cannot be saved, with a message they can act on.
public struct ValidationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The form field at fault: "name", "subtitle", "collection" or "photo".
    public let field: String
    public let message: String
    /// The problems of other fields found with this one, so a form shows every one at once.
    public let others: [ValidationError]

    public init(field: String, message: String, others: [ValidationError] = []) {
        self.field = field
        self.message = message
        self.others = others
    }

    /// This problem and the others, in the order found.
    public var all: [ValidationError] { [ValidationError(field: field, message: message)] + others }

    public var description: String { message }
}

/// Problems gathered while a form's fields are checked one after another: thrown together, the
/// first carrying the others.
struct ValidationProblems {
    private var found: [ValidationError] = []

    /// `body`'s value, or nil with its problem kept.
    mutating func check<Value>(_ body: () throws(ValidationError) -> Value) -> Value? {
        do {
            return try body()
        } catch {
            found.append(error)
            return nil
        }
    }

    mutating func add(_ problem: ValidationError) {
        found.append(problem)
    }

    func throwIfAny() throws(ValidationError) {
        guard let first = found.first else { return }
        throw ValidationError(field: first.field, message: first.message, others: Array(found.dropFirst()))
    }
}

/// What is wrong with a piece of text, worded by each caller for its audience (a form shows
/// "Enter a trip title.", an archive error says "must not be empty").
enum TextProblem: Error, Equatable {
    case empty
    case tooLong(limit: Int)
    case controlCharacters
    /// Format characters (Unicode category Cf: bidi overrides, zero-width spaces, U+FEFF) and
    /// the line and paragraph separators: invisible, they make a name show as something else.
    case invisibleCharacters
    /// Code points Unicode keeps out of text (U+FFFE, U+FFFF, U+FDD0–U+FDEF, the last two of each
    /// plane): XML cannot carry some of them, so a calendar or map file would break on the name.
    case noncharacters
}

/// The rules for names and subtitles: trimmed, at most 200 characters and 800 bytes, no control
/// characters (line breaks included: every such text is shown on one line), no invisible ones and
/// no noncharacters.
/// Every way in (forms, the API, imports and so sync) goes through `check`.
enum TextRules {
    static let maximumLength = 200
    /// One character may hold any number of combining marks: counted alone, a 200-character
    /// name could be megabytes. 800 bytes leave room for 200 characters of any script.
    static let maximumBytes = 800

    /// The trimmed text, or the problem that keeps it from being stored.
    static func check(_ text: String) -> Result<String, TextProblem> {
        // Most names are printable ASCII: spaces are their only whitespace, each byte one
        // character and none a control character. This path keeps bulk imports fast.
        if text.isPrintableASCII {
            let bytes = text.utf8
            guard let first = bytes.firstIndex(where: { $0 != 0x20 }), let last = bytes.lastIndex(where: { $0 != 0x20 }) else {
                return .failure(.empty)
            }
            let trimmed = text[first...last]
            return trimmed.utf8.count > maximumLength ? .failure(.tooLong(limit: maximumLength)) : .success(String(trimmed))
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if isBlank(trimmed) { return .failure(.empty) }
        if trimmed.utf8.count > maximumBytes || trimmed.count > maximumLength { return .failure(.tooLong(limit: maximumLength)) }
        if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return .failure(.controlCharacters)
        }
        if trimmed.unicodeScalars.contains(where: isInvisible) { return .failure(.invisibleCharacters) }
        if trimmed.unicodeScalars.contains(where: \.properties.isNoncharacterCodePoint) { return .failure(.noncharacters) }
        return .success(trimmed)
    }

    /// Letters that show as nothing (the Hangul fillers, the blank Braille pattern): a name of
    /// them alone is blank, as one of spaces is.
    private static let blankLetters: Set<Unicode.Scalar> = ["\u{115F}", "\u{1160}", "\u{3164}", "\u{FFA0}", "\u{2800}"]

    static func isBlank(_ text: some StringProtocol) -> Bool {
        text.unicodeScalars.allSatisfy { $0.properties.isWhitespace || blankLetters.contains($0) }
    }

    /// The zero-width joiners stay allowed: emoji sequences, Persian and Indic scripts need them.
    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .format: scalar != "\u{200C}" && scalar != "\u{200D}"
        case .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    /// A required text of a form: `noun` names it in messages ("title", "activity name").
    static func required(_ text: String, field: String, noun: String, emptyMessage: String) throws(ValidationError) -> String {
        switch check(text) {
        case .success(let trimmed):
            return trimmed
        case .failure(let problem):
            let message = switch problem {
            case .empty: emptyMessage
            case .tooLong(let limit): "Keep the \(noun) under \(limit) characters."
            case .controlCharacters: "Remove line breaks and other control characters from the \(noun)."
            case .invisibleCharacters: "Remove invisible and text-direction characters (such as U+202E or U+200B) from the \(noun)."
            case .noncharacters: "Remove the characters that are not text (such as U+FFFF) from the \(noun)."
            }
            throw ValidationError(field: field, message: message)
        }
    }

    /// An optional text of a form: blank becomes nil.
    static func optional(_ text: String?, field: String, noun: String) throws(ValidationError) -> String? {
        guard let text, !isBlank(text) else { return nil }
        return try required(text, field: field, noun: noun, emptyMessage: "")
    }
}
