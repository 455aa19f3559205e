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
        case variable(name: Int, isEscaped: Bool)
        /// The section's content is the instructions after this one, up to `end` (exclusive).
        case section(name: Int, end: Int, isInverted: Bool)
        case partial(Int)
        case parent(Int)
        case block(Int)
    }

    let instructions: UnsafeMutableBufferPointer<Instruction>
    let text: UnsafeMutableBufferPointer<UInt8>
    /// Names of variables and sections, by index; read in place (`names[i]`) so no copy is retained.
    let names: UnsafeMutableBufferPointer<Path>
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
        names = .allocate(capacity: compiler.names.count)
        _ = names.initialize(from: compiler.names)
        lineStarts = compiler.lineStarts
        partials = compiler.partials
        parents = compiler.parents
        blocks = compiler.blocks
    }

    deinit {
        instructions.deallocate()
        text.deallocate()
        names.deinitialize().deallocate()
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
    var names: [Path] = []
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
                instructions.append(.variable(name: names.count, isEscaped: variable.isEscaped))
                names.append(variable.path)
            case .section(let section):
                let sectionIndex = instructions.count
                instructions.append(.text(start: 0, end: 0, lines: -1))  // replaced once the end is known
                let name = names.count
                names.append(section.path)
                compile(section.content)
                instructions[sectionIndex] = .section(name: name, end: instructions.count, isInverted: section.isInverted)
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
}
