/// Runs compiled templates against a stack of context values, writing into one buffer.
struct Renderer: ~Copyable {
    /// Deep enough for any real page; stops a template that includes itself forever.
    static let maximumDepth = 64

    private(set) var output: OutputBuffer
    /// Borrowed: each points at a value held by a caller frame (the rendering's context, a list's
    /// storage, a looked-up value) for as long as it is on the stack, so pushing retains nothing.
    private var contextStack: [UnsafePointer<MustacheValue>] = []
    /// Prepended at each template line start: the indentation of enclosing standalone partials and blocks.
    private var indentation: [UInt8] = []
    /// Block arguments in force: given by the parents being rendered, the outermost winning.
    private var blockArguments: [String: Program] = [:]
    private var depth = 0
    private let library: TemplateLibrary?
    /// The library's answers so far in this rendering: a partial in a list is needed once per item,
    /// and each question to the library takes its lock and hashes names (a third of a small card's render).
    private var resolvedNames: [String] = []
    private var resolvedPrograms: [Program?] = []

    init(library: TemplateLibrary?, capacity: Int) {
        output = OutputBuffer(reservingCapacity: capacity)
        contextStack.reserveCapacity(16)
        self.library = library
    }

    mutating func render(_ program: Program, in context: MustacheValue) throws(MustacheError) {
        try withUnsafePointer(to: context) { (context) throws(MustacheError) in
            try run(program, from: 0, to: program.instructions.count, in: context)
        }
    }

    private mutating func render(_ program: Program) throws(MustacheError) {
        try run(program, from: 0, to: program.instructions.count)
    }

    private mutating func run(_ program: Program, from start: Int, to end: Int) throws(MustacheError) {
        var index = start
        while index < end {
            switch program.instructions[index] {
            case .text(let textStart, let textEnd, let lines):
                if lines < 0 || indentation.isEmpty {
                    output.append(program.text.baseAddress! + textStart, count: textEnd - textStart)
                } else {
                    appendText(of: program, textStart..<textEnd, lines: lines, indentingFirstLine: true)
                }
            case .variable(let name, let isEscaped):
                if let value = lookUp(program.components(of: name)) { output.append(value, escaped: isEscaped) }
            case .section(let name, let contentEnd, let isInverted):
                try renderSection(program, from: index + 1, to: contentEnd,
                                  value: lookUp(program.components(of: name)) ?? .null, inverted: isInverted)
                index = contentEnd
                continue
            case .partial, .parent, .block:
                try runInclusion(program, at: index)
            }
            index += 1
        }
    }

    /// Partials, parents and blocks: out of the loop above, which they would only slow down.
    @inline(never)
    private mutating func runInclusion(_ program: Program, at index: Int) throws(MustacheError) {
        switch program.instructions[index] {
        case .partial(let partialIndex):
            let partial = program.partials[partialIndex]
            guard let resolved = try resolve(partial.reference) else { return }
            try withIndentation(partial.indentation) { renderer throws(MustacheError) in
                try renderer.renderNested(resolved)
            }
        case .parent(let parentIndex):
            let parent = program.parents[parentIndex]
            guard let resolved = try resolve(parent.reference) else { return }
            let outerArguments = blockArguments
            blockArguments = parent.arguments.merging(outerArguments) { _, outer in outer }
            defer { blockArguments = outerArguments }
            try withIndentation(parent.indentation) { renderer throws(MustacheError) in
                try renderer.renderNested(resolved)
            }
        case .block(let blockIndex):
            try renderBlock(program.blocks[blockIndex])
        case .text, .variable, .section:
            preconditionFailure("runInclusion handles partials, parents and blocks only")
        }
    }

    private mutating func appendText(of program: Program, _ range: Range<Int>, lines: Int, indentingFirstLine: Bool) {
        let text = program.text
        guard !indentation.isEmpty, lines >= 0 else {
            output.append(UnsafeBufferPointer(rebasing: text[range]))
            return
        }
        var pieceStart = range.lowerBound
        for lineStart in program.lineStarts[lines] where indentingFirstLine || lineStart != 0 {
            output.append(UnsafeBufferPointer(rebasing: text[pieceStart..<(range.lowerBound + lineStart)]))
            output.append(indentation)
            pieceStart = range.lowerBound + lineStart
        }
        output.append(UnsafeBufferPointer(rebasing: text[pieceStart..<range.upperBound]))
    }

    private mutating func renderSection(_ program: Program, from start: Int, to end: Int,
                                        value: MustacheValue, inverted: Bool) throws(MustacheError) {
        if inverted {
            if !value.isTruthy { try run(program, from: start, to: end) }
            return
        }
        guard value.isTruthy else { return }
        guard case .array(let items) = value else {
            try withUnsafePointer(to: value) { (value) throws(MustacheError) in
                try run(program, from: start, to: end, in: value)
            }
            return
        }
        try items.withUnsafeBufferPointer { (items) throws(MustacheError) in
            for index in items.indices {
                try run(program, from: start, to: end, in: items.baseAddress! + index)
            }
        }
    }

    private mutating func run(_ program: Program, from start: Int, to end: Int,
                              in context: UnsafePointer<MustacheValue>) throws(MustacheError) {
        contextStack.append(context)
        defer { contextStack.removeLast() }
        try run(program, from: start, to: end)
    }

    private mutating func renderBlock(_ block: CompiledBlock) throws(MustacheError) {
        guard let argument = blockArguments[block.name] else {
            try render(block.defaultContent)
            return
        }
        try withIndentation(block.indentation) { renderer throws(MustacheError) in
            // The first line follows literal indentation already written before the block tag.
            if !block.indentsFirstLine, case .text(let start, let end, let lines)? = argument.instructions.first {
                renderer.appendText(of: argument, start..<end, lines: lines, indentingFirstLine: false)
                try renderer.run(argument, from: 1, to: argument.instructions.count)
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

    /// Renders the template at `resolved` in `resolvedPrograms`.
    private mutating func renderNested(_ resolved: Int) throws(MustacheError) {
        guard depth < Self.maximumDepth else {
            throw MustacheError(templateName: resolvedNames[resolved], line: nil,
                                message: "partials nested more than \(Self.maximumDepth) levels deep; is a partial including itself?")
        }
        depth += 1
        defer { depth -= 1 }
        try render(resolvedPrograms[resolved]!)
    }

    /// Where the referenced template is in `resolvedPrograms`, asking the library the first time;
    /// nil when there is no such template. (An index: handing out the template would retain it.)
    private mutating func resolve(_ reference: TemplateReference) throws(MustacheError) -> Int? {
        switch reference {
        case .named(let name):
            return try resolve(name)
        case .dynamic(let path):
            guard case .string(let name)? = path.components.withUnsafeBufferPointer({ lookUp($0) }) else { return nil }
            return try resolve(name)
        }
    }

    private mutating func resolve(_ name: String) throws(MustacheError) -> Int? {
        guard let library else { return nil }
        if let index = resolvedNames.firstIndex(of: name) {
            return resolvedPrograms[index] == nil ? nil : index
        }
        let program = try library.template(named: name)?.program
        resolvedNames.append(name)
        resolvedPrograms.append(program)
        return program == nil ? nil : resolvedNames.count - 1
    }

    /// Spec name resolution: the first component is searched down the stack, the rest inside what it found.
    /// No components is `{{.}}`. (Components are borrowed in place, keys compared without copies.)
    @inline(__always)
    private func lookUp(_ components: UnsafeBufferPointer<String>) -> MustacheValue? {
        guard let first = components.baseAddress, !components.isEmpty else { return contextStack.last?.pointee }
        guard var found = lookUp(first) else { return nil }
        for component in 1..<components.count {
            guard case .object(let object) = found, let next = object.value(forKey: first + component) else { return nil }
            found = next
        }
        return found
    }

    @inline(__always)
    private func lookUp(_ key: UnsafePointer<String>) -> MustacheValue? {
        var index = contextStack.count
        while index > 0 {
            index -= 1
            if case .object(let object) = contextStack[index].pointee, let value = object.value(forKey: key) { return value }
        }
        return nil
    }
}
