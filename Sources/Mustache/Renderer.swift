/// Walks a node tree against a stack of context values, writing into one buffer.
struct Renderer: ~Copyable {
    /// Deep enough for any real page; stops a template that includes itself forever.
    static let maximumDepth = 64

    private(set) var output: OutputBuffer
    private var contextStack: [MustacheValue]
    /// Prepended at each template line start: the indentation of enclosing standalone partials and blocks.
    private var indentation: [UInt8] = []
    /// Block arguments in force: given by the parents being rendered, the outermost winning.
    private var blockArguments: [String: [Node]] = [:]
    private var depth = 0
    private let library: TemplateLibrary?

    init(context: MustacheValue, library: TemplateLibrary?, capacity: Int) {
        output = OutputBuffer(reservingCapacity: capacity)
        contextStack = [context]
        contextStack.reserveCapacity(16)
        self.library = library
    }

    mutating func render(_ nodes: [Node]) throws(MustacheError) {
        for node in nodes {
            switch node {
            case .text(let text):
                append(text, indentingFirstLine: true)
            case .variable(let variable):
                if let value = lookUp(variable.path) { output.append(value, escaped: variable.isEscaped) }
            case .section(let section):
                try renderSection(section.content, value: lookUp(section.path) ?? .null, inverted: section.isInverted)
            case .partial(let partial):
                guard let template = try template(for: partial.reference) else { continue }
                try withIndentation(partial.indentation) { renderer throws(MustacheError) in
                    try renderer.renderNested(template)
                }
            case .parent(let parent):
                guard let template = try template(for: parent.reference) else { continue }
                let outerArguments = blockArguments
                blockArguments = parent.arguments.merging(outerArguments) { _, outer in outer }
                defer { blockArguments = outerArguments }
                try withIndentation(parent.indentation) { renderer throws(MustacheError) in
                    try renderer.renderNested(template)
                }
            case .block(let block):
                try renderBlock(block)
            }
        }
    }

    private mutating func append(_ text: Text, indentingFirstLine: Bool) {
        guard !indentation.isEmpty, !text.lineStarts.isEmpty else {
            output.append(text.bytes)
            return
        }
        var pieceStart = 0
        for lineStart in text.lineStarts where indentingFirstLine || lineStart != 0 {
            output.append(text.bytes, from: pieceStart, to: lineStart)
            output.append(indentation)
            pieceStart = lineStart
        }
        output.append(text.bytes, from: pieceStart, to: text.bytes.count)
    }

    private mutating func renderSection(_ content: [Node], value: MustacheValue, inverted: Bool) throws(MustacheError) {
        if inverted {
            if !value.isTruthy { try render(content) }
            return
        }
        guard value.isTruthy else { return }
        guard case .array(let items) = value else {
            try render(content, in: value)
            return
        }
        for item in items {
            try render(content, in: item)
        }
    }

    private mutating func render(_ content: [Node], in context: MustacheValue) throws(MustacheError) {
        contextStack.append(context)
        defer { contextStack.removeLast() }
        try render(content)
    }

    private mutating func renderBlock(_ block: Block) throws(MustacheError) {
        guard let argument = blockArguments[block.name] else {
            try render(block.defaultContent)
            return
        }
        try withIndentation(block.indentation) { renderer throws(MustacheError) in
            // The first line follows literal indentation already written before the block tag.
            if !block.indentsFirstLine, case .text(let text)? = argument.first {
                renderer.append(text, indentingFirstLine: false)
                try renderer.render(Array(argument.dropFirst()))
            } else {
                try renderer.render(argument)
            }
        }
    }

    /// Runs `body` with the indentation of a standalone tag or block added, or none at all for an inline tag.
    private mutating func withIndentation(_ added: [UInt8]?, _ body: (inout Renderer) throws(MustacheError) -> Void) throws(MustacheError) {
        let outerIndentation = indentation
        if let added {
            if !added.isEmpty { indentation += added }
        } else {
            indentation = []
        }
        defer { indentation = outerIndentation }
        try body(&self)
    }

    private mutating func renderNested(_ template: Template) throws(MustacheError) {
        guard depth < Self.maximumDepth else {
            throw MustacheError(templateName: template.name, line: nil,
                                message: "partials nested more than \(Self.maximumDepth) levels deep; is a partial including itself?")
        }
        depth += 1
        defer { depth -= 1 }
        try render(template.nodes)
    }

    private func template(for reference: TemplateReference) throws(MustacheError) -> Template? {
        guard let library else { return nil }
        switch reference {
        case .named(let name):
            return try library.template(named: name)
        case .dynamic(let path):
            guard case .string(let name)? = lookUp(path) else { return nil }
            return try library.template(named: name)
        }
    }

    /// Spec name resolution: the first component is searched down the stack, the rest inside what it found.
    /// (Written so the common single name returns its value without intermediate copies.)
    @inline(__always)
    private func lookUp(_ path: Path) -> MustacheValue? {
        let components = path.components
        switch components.count {
        case 0: return contextStack.last
        case 1: return lookUp(components[0])
        default: return lookUp(components[0]).flatMap { Self.value(at: components.dropFirst(), in: $0) }
        }
    }

    private static func value(at components: ArraySlice<String>, in value: MustacheValue) -> MustacheValue? {
        var found = value
        for component in components {
            guard case .object(let object) = found, let next = object.value(forKey: component) else { return nil }
            found = next
        }
        return found
    }

    @inline(__always)
    private func lookUp(_ key: String) -> MustacheValue? {
        var index = contextStack.count
        while index > 0 {
            index -= 1
            if case .object(let object) = contextStack[index], let value = object.value(forKey: key) { return value }
        }
        return nil
    }
}
