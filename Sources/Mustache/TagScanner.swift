/// One tag found in a template source, before the tree is built.
struct Tag {
    enum Kind: Equatable {
        case variable, unescapedVariable, section, invertedSection, close
        case comment, partial, parent, block, setDelimiters
    }

    let kind: Kind
    /// The trimmed tag content: a dotted name, a template name (`*name` when dynamic), or "".
    let name: String
    /// The whole tag, delimiters included, as byte offsets into the source.
    let range: Range<Int>
    let line: Int
}

/// Splits a template source into its tags, following `{{=<% %>=}}` delimiter changes.
struct TagScanner {
    private let source: [UInt8]
    private let templateName: String
    private var openingDelimiter = Array("{{".utf8)
    private var closingDelimiter = Array("}}".utf8)
    private var lineCounter = LineCounter()

    static func tags(in source: [UInt8], templateName: String) throws(MustacheError) -> [Tag] {
        var scanner = TagScanner(source: source, templateName: templateName)
        return try scanner.scanAll()
    }

    private init(source: [UInt8], templateName: String) {
        self.source = source
        self.templateName = templateName
    }

    private mutating func scanAll() throws(MustacheError) -> [Tag] {
        var tags: [Tag] = []
        var position = 0
        while let start = source.firstIndex(of: openingDelimiter, from: position) {
            let tag = try scanTag(at: start)
            tags.append(tag)
            position = tag.range.upperBound
        }
        return tags
    }

    private mutating func scanTag(at start: Int) throws(MustacheError) -> Tag {
        let line = lineCounter.line(at: start, in: source)
        var contentStart = start + openingDelimiter.count
        var terminator = closingDelimiter
        let kind: Tag.Kind
        switch contentStart < source.count ? source[contentStart] : 0 {
        case UInt8(ascii: "{"): kind = .unescapedVariable; terminator = [UInt8(ascii: "}")] + closingDelimiter
        case UInt8(ascii: "&"): kind = .unescapedVariable
        case UInt8(ascii: "#"): kind = .section
        case UInt8(ascii: "^"): kind = .invertedSection
        case UInt8(ascii: "/"): kind = .close
        case UInt8(ascii: "!"): kind = .comment
        case UInt8(ascii: ">"): kind = .partial
        case UInt8(ascii: "<"): kind = .parent
        case UInt8(ascii: "$"): kind = .block
        case UInt8(ascii: "="): kind = .setDelimiters; terminator = [UInt8(ascii: "=")] + closingDelimiter
        default: kind = .variable
        }
        if kind != .variable { contentStart += 1 }
        guard let contentEnd = source.firstIndex(of: terminator, from: contentStart) else {
            throw error(line, "unclosed tag: '\(String(decoding: openingDelimiter, as: UTF8.self))' "
                        + "has no matching '\(String(decoding: terminator, as: UTF8.self))'")
        }
        let range = start..<(contentEnd + terminator.count)
        let content = source[contentStart..<contentEnd].trimmingWhitespace()
        switch kind {
        case .comment:
            return Tag(kind: kind, name: "", range: range, line: line)
        case .setDelimiters:
            try changeDelimiters(to: content, line: line)
            return Tag(kind: kind, name: "", range: range, line: line)
        case .partial, .parent:
            return Tag(kind: kind, name: try templateReferenceName(content, line: line), range: range, line: line)
        default:
            return Tag(kind: kind, name: try validName(content, line: line), range: range, line: line)
        }
    }

    private mutating func changeDelimiters(to content: ArraySlice<UInt8>, line: Int) throws(MustacheError) {
        let parts = content.split(whereSeparator: \.isMustacheWhitespace)
        guard parts.count == 2, !parts.contains(where: { $0.contains(UInt8(ascii: "=")) }) else {
            throw error(line, "invalid set delimiters tag '=\(String(decoding: content, as: UTF8.self))=': "
                        + "expected two delimiters separated by whitespace, such as '{{=<% %>=}}'")
        }
        openingDelimiter = Array(parts[0])
        closingDelimiter = Array(parts[1])
    }

    /// A partial or parent name; a leading `*` (maybe followed by spaces) makes it dynamic.
    private func templateReferenceName(_ content: ArraySlice<UInt8>, line: Int) throws(MustacheError) -> String {
        guard content.first == UInt8(ascii: "*") else { return try validName(content, line: line) }
        return "*" + (try validName(content.dropFirst().trimmingWhitespace(), line: line))
    }

    private func validName(_ content: ArraySlice<UInt8>, line: Int) throws(MustacheError) -> String {
        let name = String(decoding: content, as: UTF8.self)
        if content.isEmpty { throw error(line, "empty tag name") }
        if content.contains(where: \.isMustacheWhitespace) { throw error(line, "invalid tag name '\(name)': names contain no spaces") }
        return name
    }

    private func error(_ line: Int, _ message: String) -> MustacheError {
        MustacheError(templateName: templateName, line: line, message: message)
    }
}

/// Turns byte offsets into line numbers, counting newlines incrementally as offsets grow.
struct LineCounter {
    private var countedUpTo = 0
    private var line = 1

    mutating func line(at offset: Int, in source: [UInt8]) -> Int {
        if offset < countedUpTo { countedUpTo = 0; line = 1 }
        line += source[countedUpTo..<offset].count(where: { $0 == UInt8(ascii: "\n") })
        countedUpTo = offset
        return line
    }
}

extension UInt8 {
    var isMustacheWhitespace: Bool {
        self == UInt8(ascii: " ") || self == UInt8(ascii: "\t") || self == UInt8(ascii: "\n") || self == UInt8(ascii: "\r")
    }

    /// Indentation whitespace: what may precede a standalone tag on its line.
    var isInlineWhitespace: Bool { self == UInt8(ascii: " ") || self == UInt8(ascii: "\t") }
}

extension ArraySlice<UInt8> {
    func trimmingWhitespace() -> ArraySlice<UInt8> {
        guard let first = firstIndex(where: { !$0.isMustacheWhitespace }),
              let last = lastIndex(where: { !$0.isMustacheWhitespace }) else { return self[endIndex...] }
        return self[first...last]
    }
}

extension Array<UInt8> {
    /// The first offset at or after `start` where `needle` occurs.
    func firstIndex(of needle: [UInt8], from start: Int) -> Int? {
        guard let head = needle.first, needle.count <= count else { return nil }
        var index = start
        let lastStart = count - needle.count
        while index <= lastStart {
            if self[index] == head && self[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
