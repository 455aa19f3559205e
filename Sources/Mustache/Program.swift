/// A parsed node list compiled for rendering: a flat run of instructions holding only integers,
/// over one array of literal bytes; a section's content follows its instruction inline.
///
/// Why: walking the node tree retained and released every node, name and text it passed (about
/// fifty reference-count operations per card of a page, a fifth of the render). Instructions are
/// trivial values in memory owned here, so the renderer reads them through plain pointers.
/// Immutable after `init`, hence `@unchecked Sendable`.
final class Program: @unchecked Sendable {
    enum Instruction {
        /// Literal bytes `text[start..<end]`; `lines` indexes `lineStarts`, or is -1 when no line starts in it.
        case text(start: Int, end: Int, lines: Int)
        case variable(Name, isEscaped: Bool)
        /// The section's content is the instructions after this one, up to `end` (exclusive).
        case section(Name, end: Int, isInverted: Bool)
        case partial(Int)
        case parent(Int)
        case block(Int)
    }

    /// A dotted name of a variable or section: `count` components from `start` in `nameComponents`;
    /// none for `{{.}}`.
    struct Name {
        let start: Int32
        let count: Int32
    }

    let instructions: UnsafeMutableBufferPointer<Instruction>
    let text: UnsafeMutableBufferPointer<UInt8>
    /// The components of every name, read in place (a copied `String` would be retained).
    let nameComponents: UnsafeMutableBufferPointer<String>
    /// Offsets, relative to their text's start, where a template line begins (for indentation).
    let lineStarts: [[Int]]
    let partials: [Partial]
    let parents: [CompiledParent]
    let blocks: [CompiledBlock]

    init(_ nodes: [Node]) {
        var compiler = Compiler()
        compiler.compile(nodes)
        instructions = .allocate(capacity: compiler.instructions.count)
        _ = instructions.initialize(from: compiler.instructions)
        text = .allocate(capacity: compiler.text.count)
        _ = text.initialize(from: compiler.text)
        nameComponents = .allocate(capacity: compiler.nameComponents.count)
        _ = nameComponents.initialize(from: compiler.nameComponents)
        lineStarts = compiler.lineStarts
        partials = compiler.partials
        parents = compiler.parents
        blocks = compiler.blocks
    }

    func components(of name: Name) -> UnsafeBufferPointer<String> {
        UnsafeBufferPointer(start: nameComponents.baseAddress! + Int(name.start), count: Int(name.count))
    }

    deinit {
        instructions.deallocate()
        text.deallocate()
        nameComponents.deinitialize().deallocate()
    }
}

/// `{{<parent}}` with its block arguments compiled.
final class CompiledParent: Sendable {
    let reference: TemplateReference
    let indentation: [UInt8]?
    let arguments: [String: Program]

    init(_ parent: Parent) {
        reference = parent.reference
        indentation = parent.indentation
        arguments = parent.arguments.mapValues(Program.init)
    }
}

/// `{{$name}}` outside a parent, its default content compiled.
final class CompiledBlock: Sendable {
    let name: String
    let defaultContent: Program
    let indentation: [UInt8]
    let indentsFirstLine: Bool

    init(_ block: Block) {
        name = block.name
        defaultContent = Program(block.defaultContent)
        indentation = block.indentation
        indentsFirstLine = block.indentsFirstLine
    }
}

private struct Compiler {
    var instructions: [Program.Instruction] = []
    var text: [UInt8] = []
    var nameComponents: [String] = []
    var lineStarts: [[Int]] = []
    var partials: [Partial] = []
    var parents: [CompiledParent] = []
    var blocks: [CompiledBlock] = []

    mutating func compile(_ nodes: [Node]) {
        for node in nodes {
            switch node {
            case .text(let literal):
                var lines = -1
                if !literal.lineStarts.isEmpty {
                    lines = lineStarts.count
                    lineStarts.append(literal.lineStarts)
                }
                instructions.append(.text(start: text.count, end: text.count + literal.bytes.count, lines: lines))
                text += literal.bytes
            case .variable(let variable):
                instructions.append(.variable(name(variable.path), isEscaped: variable.isEscaped))
            case .section(let section):
                let sectionIndex = instructions.count
                instructions.append(.text(start: 0, end: 0, lines: -1))  // replaced once the end is known
                let sectionName = name(section.path)
                compile(section.content)
                instructions[sectionIndex] = .section(sectionName, end: instructions.count, isInverted: section.isInverted)
            case .partial(let partial):
                instructions.append(.partial(partials.count))
                partials.append(partial)
            case .parent(let parent):
                instructions.append(.parent(parents.count))
                parents.append(CompiledParent(parent))
            case .block(let block):
                instructions.append(.block(blocks.count))
                blocks.append(CompiledBlock(block))
            }
        }
    }

    private mutating func name(_ path: Path) -> Program.Name {
        defer { nameComponents += path.components }
        return Program.Name(start: Int32(nameComponents.count), count: Int32(path.components.count))
    }
}
