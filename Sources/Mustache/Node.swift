/// The parsed form of a template: a tree, compiled into a flat `Program` for rendering.
enum Node: Sendable {
    case text(Text)
    case variable(Variable)
    case section(Section)
    case partial(Partial)
    /// `{{<parent}}`: the parent template rendered with these blocks overriding its own.
    case parent(Parent)
    /// `{{$name}}` outside a parent: default content, replaced by an argument when one is given.
    case block(Block)
}

/// Literal template text, with the offsets where a line of the template begins: indentation of
/// an enclosing standalone partial, parent or block is inserted there at render time.
final class Text: Sendable {
    let bytes: [UInt8]
    let lineStarts: [Int]

    init(bytes: [UInt8], lineStarts: [Int]) {
        self.bytes = bytes
        self.lineStarts = lineStarts
    }
}

final class Variable: Sendable {
    let path: Path
    let isEscaped: Bool

    init(path: Path, isEscaped: Bool) {
        self.path = path
        self.isEscaped = isEscaped
    }
}

final class Section: Sendable {
    let path: Path
    let content: [Node]
    let isInverted: Bool

    init(path: Path, content: [Node], isInverted: Bool) {
        self.path = path
        self.content = content
        self.isInverted = isInverted
    }
}

final class Partial: Sendable {
    let reference: TemplateReference
    /// Nil for a partial inside a line: it is not indented at all.
    let indentation: [UInt8]?

    init(reference: TemplateReference, indentation: [UInt8]?) {
        self.reference = reference
        self.indentation = indentation
    }
}

final class Parent: Sendable {
    let reference: TemplateReference
    let indentation: [UInt8]?
    let arguments: [String: [Node]]

    init(reference: TemplateReference, indentation: [UInt8]?, arguments: [String: [Node]]) {
        self.reference = reference
        self.indentation = indentation
        self.arguments = arguments
    }
}

final class Block: Sendable {
    let name: String
    let defaultContent: [Node]
    /// Prepended to each line of an argument rendered in place of the default content.
    let indentation: [UInt8]
    /// False when the block's tag follows its own indentation on a line: that first line is
    /// already indented by the literal text before the tag.
    let indentsFirstLine: Bool

    init(name: String, defaultContent: [Node], indentation: [UInt8], indentsFirstLine: Bool) {
        self.name = name
        self.defaultContent = defaultContent
        self.indentation = indentation
        self.indentsFirstLine = indentsFirstLine
    }
}

/// A dotted name, resolved against the context stack; no components means `{{.}}`.
struct Path: Sendable {
    let components: [String]
}

/// The name of a partial or parent: written in the template, or read from the context (`{{>*name}}`).
enum TemplateReference: Sendable {
    case named(String)
    case dynamic(Path)
}
