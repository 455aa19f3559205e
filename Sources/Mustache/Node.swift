/// The parsed form of a template: a tree walked by the renderer.
enum Node: Sendable {
    case text(Text)
    case variable(Path, escaped: Bool)
    case section(Path, [Node], inverted: Bool)
    /// `indentation` is nil for a partial inside a line (it is not indented at all).
    case partial(TemplateReference, indentation: [UInt8]?)
    /// `{{<parent}}`: the parent template rendered with these blocks overriding its own.
    case parent(TemplateReference, indentation: [UInt8]?, arguments: [String: [Node]])
    /// `{{$name}}` outside a parent: default content, replaced by an argument when one is given.
    case block(Block)
}

/// Literal template text, with the offsets where a line of the template begins: indentation of
/// an enclosing standalone partial, parent or block is inserted there at render time.
struct Text: Sendable {
    var bytes: [UInt8] = []
    var lineStarts: [Int] = []
}

/// A dotted name, resolved against the context stack; no components means `{{.}}`.
struct Path: Sendable {
    let components: [String]

    var isImplicitIterator: Bool { components.isEmpty }
}

/// The name of a partial or parent: written in the template, or read from the context (`{{>*name}}`).
enum TemplateReference: Sendable {
    case named(String)
    case dynamic(Path)
}

struct Block: Sendable {
    let name: String
    let defaultContent: [Node]
    /// Prepended to each line of an argument rendered in place of the default content.
    let indentation: [UInt8]
    /// False when the block's tag follows its own indentation on a line: that first line is
    /// already indented by the literal text before the tag.
    let indentsFirstLine: Bool
}
