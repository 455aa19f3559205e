/// Builds the node tree of a template: pairs sections with their end tags, removes standalone
/// lines (spec "standalone" rules, including those of parents and blocks) and records where
/// indentation goes.
struct Parser {
    /// Where a tag sits in its line, and how much source around it disappears with it.
    private struct Layout {
        /// Source consumed with the tag: the tag itself, widened for a standalone tag to its whole line.
        var outerRange: Range<Int>
        /// True when `outerRange` starts at the beginning of a line that the tag removes.
        var removesLineStart = false
        /// The whitespace before the tag when nothing else precedes it on its line.
        var leadingWhitespace: Range<Int>?
        /// Where the tag's line ends (after its newline) when only whitespace follows the tag.
        var lineEnd: Int?
        var isStandalone: Bool { leadingWhitespace != nil && lineEnd != nil }
    }

    private let source: [UInt8]
    private let templateName: String
    private let tags: [Tag]
    /// For each opening tag the index of its end tag, and the reverse.
    private var partner: [Int?]
    private var layouts: [Layout] = []

    static func parse(_ source: [UInt8], templateName: String) throws(MustacheError) -> [Node] {
        var parser = Parser(source: source, templateName: templateName,
                            tags: try TagScanner.tags(in: source, templateName: templateName))
        try parser.pairTags()
        parser.layOutTags()
        return parser.nodes(in: 0..<source.count, tags: 0..<parser.tags.count, outdent: [],
                            isInlineTemplate: false, endKeepsLine: true)
    }

    private init(source: [UInt8], templateName: String, tags: [Tag]) {
        self.source = source
        self.templateName = templateName
        self.tags = tags
        self.partner = Array(repeating: nil, count: tags.count)
    }

    // MARK: Pairing

    private mutating func pairTags() throws(MustacheError) {
        var openTags: [Int] = []
        for (index, tag) in tags.enumerated() {
            switch tag.kind {
            case .section, .invertedSection, .parent, .block:
                openTags.append(index)
            case .close:
                guard let open = openTags.popLast() else {
                    throw error(tag.line, "'\(text(of: tag))' closes nothing: no section is open")
                }
                guard tags[open].name == tag.name else {
                    throw error(tag.line, "'\(text(of: tag))' does not match '\(text(of: tags[open]))' "
                                + "opened on line \(tags[open].line)")
                }
                partner[open] = index
                partner[index] = open
            default:
                break
            }
        }
        if let unclosed = openTags.last {
            let tag = tags[unclosed]
            throw error(tag.line, "'\(text(of: tag))' is never closed (expected a closing tag for '\(tag.name)')")
        }
    }

    // MARK: Standalone lines

    private mutating func layOutTags() {
        layouts = tags.map { tag in
            var layout = Layout(outerRange: tag.range)
            guard tag.kind != .variable && tag.kind != .unescapedVariable else { return layout }
            layout.leadingWhitespace = lineStart(before: tag.range.lowerBound).map { $0..<tag.range.lowerBound }
            layout.lineEnd = lineEnd(after: tag.range.upperBound)
            if layout.isStandalone, let leading = layout.leadingWhitespace, let end = layout.lineEnd {
                layout.outerRange = leading.lowerBound..<end
                layout.removesLineStart = true
            }
            return layout
        }
        // A parent tag pair is standalone as a whole when it opens and closes a line, even on one line.
        for (index, tag) in tags.enumerated() where tag.kind == .parent {
            guard let close = partner[index], let leading = layouts[index].leadingWhitespace,
                  let end = layouts[close].lineEnd else { continue }
            layouts[index].outerRange = leading.lowerBound..<layouts[index].outerRange.upperBound
            layouts[index].removesLineStart = true
            layouts[close].outerRange = layouts[close].outerRange.lowerBound..<end
        }
        // An argument block's line end belongs to its opening tag: the block is an inline template.
        for (index, tag) in tags.enumerated() where tag.kind == .parent {
            forEachChild(ofTagAt: index) { child in
                guard tags[child].kind == .block, let end = layouts[child].lineEnd else { return }
                layouts[child].outerRange = layouts[child].outerRange.lowerBound..<end
            }
        }
    }

    /// The offset where the line containing `offset` begins, when only spaces and tabs precede `offset` on it.
    private func lineStart(before offset: Int) -> Int? {
        var index = offset
        while index > 0 && source[index - 1].isInlineWhitespace { index -= 1 }
        return isLineStart(index) ? index : nil
    }

    /// The offset just after the end of the line (newline included), when only spaces and tabs follow `offset`.
    private func lineEnd(after offset: Int) -> Int? {
        var index = offset
        while index < source.count && source[index].isInlineWhitespace { index += 1 }
        if index == source.count { return index }
        if source[index] == UInt8(ascii: "\n") { return index + 1 }
        if source[index] == UInt8(ascii: "\r") && index + 1 < source.count && source[index + 1] == UInt8(ascii: "\n") {
            return index + 2
        }
        return nil
    }

    private func isLineStart(_ offset: Int) -> Bool {
        offset == 0 || source[offset - 1] == UInt8(ascii: "\n")
    }

    private func forEachChild(ofTagAt index: Int, _ body: (Int) -> Void) {
        guard let end = partner[index] else { return }
        var child = index + 1
        while child < end {
            body(child)
            child = (tags[child].kind == .close ? nil : partner[child]).map { $0 + 1 } ?? child + 1
        }
    }

    // MARK: Tree

    /// The nodes of the source in `range`, holding the tags in `tagRange`.
    ///
    /// `outdent` is the intrinsic indentation of the enclosing argument blocks, dropped from the
    /// start of each line. An inline template (an argument block) starts a line even mid-line.
    private func nodes(in range: Range<Int>, tags tagRange: Range<Int>, outdent: [UInt8],
                       isInlineTemplate: Bool, endKeepsLine: Bool) -> [Node] {
        var builder = NodeListBuilder()
        if isInlineTemplate && !isLineStart(range.lowerBound) { builder.markLineStart() }
        var cursor = range.lowerBound
        var index = tagRange.lowerBound
        while index < tagRange.upperBound {
            let tag = tags[index]
            let layout = layouts[index]
            appendText(cursor..<layout.outerRange.lowerBound, markingEnd: !layout.removesLineStart,
                       outdent: outdent, to: &builder)
            cursor = layout.outerRange.upperBound
            index += 1
            switch tag.kind {
            case .variable, .unescapedVariable:
                builder.append(.variable(Variable(path: Path(tag.name), isEscaped: tag.kind == .variable)))
            case .comment, .setDelimiters, .close:
                break
            case .partial:
                builder.append(.partial(Partial(reference: TemplateReference(tag.name),
                                                 indentation: standaloneIndentation(layout, outdent))))
            case .section, .invertedSection, .parent, .block:
                guard let closeIndex = partner[index - 1] else { continue }
                let open = index - 1
                index = closeIndex + 1
                cursor = layouts[closeIndex].outerRange.upperBound
                switch tag.kind {
                case .parent:
                    builder.append(.parent(Parent(reference: TemplateReference(tag.name),
                                                  indentation: standaloneIndentation(layout, outdent),
                                                  arguments: arguments(ofParentAt: open, outdent: outdent))))
                case .block:
                    builder.append(.block(block(at: open, outdent: outdent)))
                default:
                    builder.append(.section(Section(path: Path(tag.name),
                                                    content: content(ofTagAt: open, outdent: outdent, isInlineTemplate: false),
                                                    isInverted: tag.kind == .invertedSection)))
                }
            }
        }
        appendText(cursor..<range.upperBound, markingEnd: endKeepsLine, outdent: outdent, to: &builder)
        return builder.finish()
    }

    private func content(ofTagAt open: Int, outdent: [UInt8], isInlineTemplate: Bool) -> [Node] {
        let close = partner[open]!
        return nodes(in: layouts[open].outerRange.upperBound..<layouts[close].outerRange.lowerBound,
                     tags: (open + 1)..<close, outdent: outdent, isInlineTemplate: isInlineTemplate,
                     // An inline template ends like a file: no line starts at its end.
                     endKeepsLine: !isInlineTemplate && !layouts[close].removesLineStart)
    }

    /// Appends the literal text in `range`, marking each line start (the one at the range's end
    /// only if `markingEnd`, that is if the next tag keeps its line).
    private func appendText(_ range: Range<Int>, markingEnd: Bool, outdent: [UInt8], to builder: inout NodeListBuilder) {
        var pieceStart = range.lowerBound
        var lineStart: Int? = isLineStart(range.lowerBound) ? range.lowerBound : nil
        var scanned = range.lowerBound
        while true {
            if let start = lineStart, start < source.count, start < range.upperBound || markingEnd {
                builder.append(source[pieceStart..<start])
                builder.markLineStart()
                pieceStart = start + prefixLength(of: outdent, at: start, limit: range.upperBound)
            }
            guard let newline = source[scanned..<range.upperBound].firstIndex(of: UInt8(ascii: "\n")) else { break }
            scanned = newline + 1
            lineStart = scanned
        }
        builder.append(source[pieceStart..<range.upperBound])
    }

    private func prefixLength(of prefix: [UInt8], at offset: Int, limit: Int) -> Int {
        guard !prefix.isEmpty, offset + prefix.count <= limit,
              source[offset..<(offset + prefix.count)].elementsEqual(prefix) else { return 0 }
        return prefix.count
    }

    /// The indentation of a standalone partial or parent, relative to the enclosing block's; nil when inline.
    private func standaloneIndentation(_ layout: Layout, _ outdent: [UInt8]) -> [UInt8]? {
        guard layout.removesLineStart, let leading = layout.leadingWhitespace else { return nil }
        return relative(source[leading], to: outdent)
    }

    private func relative(_ indentation: ArraySlice<UInt8>, to outdent: [UInt8]) -> [UInt8] {
        indentation.starts(with: outdent) ? Array(indentation.dropFirst(outdent.count)) : Array(indentation)
    }

    /// The spaces and tabs starting the line at `offset`.
    private func whitespaceRun(at offset: Int) -> ArraySlice<UInt8> {
        source[offset...].prefix(while: \.isInlineWhitespace)
    }

    private func arguments(ofParentAt open: Int, outdent: [UInt8]) -> [String: [Node]] {
        var arguments: [String: [Node]] = [:]
        forEachChild(ofTagAt: open) { child in
            guard tags[child].kind == .block, arguments[tags[child].name] == nil else { return }
            // A block opening a line has an intrinsic indentation (that of its first line), dropped from each line.
            let blockOutdent = layouts[child].lineEnd == nil ? outdent : Array(whitespaceRun(at: layouts[child].outerRange.upperBound))
            arguments[tags[child].name] = content(ofTagAt: child, outdent: blockOutdent, isInlineTemplate: true)
        }
        return arguments
    }

    private func block(at open: Int, outdent: [UInt8]) -> Block {
        let layout = layouts[open]
        let defaultContent = content(ofTagAt: open, outdent: outdent, isInlineTemplate: false)
        if layout.isStandalone {
            // On its own line: an argument takes the indentation of the default content's first line.
            return Block(name: tags[open].name, defaultContent: defaultContent,
                         indentation: relative(whitespaceRun(at: layout.outerRange.upperBound), to: outdent),
                         indentsFirstLine: true)
        }
        let leading = layout.leadingWhitespace.map { relative(source[$0], to: outdent) } ?? []
        return Block(name: tags[open].name, defaultContent: defaultContent, indentation: leading, indentsFirstLine: false)
    }

    private func text(of tag: Tag) -> String {
        String(decoding: source[tag.range], as: UTF8.self)
    }

    private func error(_ line: Int, _ message: String) -> MustacheError {
        MustacheError(templateName: templateName, line: line, message: message)
    }
}

/// Collects nodes, merging adjacent literal text into one node.
private struct NodeListBuilder {
    private var nodes: [Node] = []
    private var textBytes: [UInt8] = []
    private var lineStarts: [Int] = []

    mutating func append(_ bytes: ArraySlice<UInt8>) {
        textBytes.append(contentsOf: bytes)
    }

    mutating func markLineStart() {
        lineStarts.append(textBytes.count)
    }

    mutating func append(_ node: Node) {
        flushText()
        nodes.append(node)
    }

    mutating func finish() -> [Node] {
        flushText()
        return nodes
    }

    private mutating func flushText() {
        guard !textBytes.isEmpty || !lineStarts.isEmpty else { return }
        nodes.append(.text(Text(bytes: textBytes, lineStarts: lineStarts)))
        textBytes = []
        lineStarts = []
    }
}

extension Path {
    init(_ name: String) {
        components = name == "." ? [] : name.split(separator: ".").map(String.init)
    }
}

extension TemplateReference {
    init(_ name: String) {
        self = name.hasPrefix("*") ? .dynamic(Path(String(name.dropFirst()))) : .named(name)
    }
}
