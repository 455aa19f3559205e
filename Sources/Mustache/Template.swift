import Synchronization

/// A template parsed once, rendered many times.
public struct Template: Sendable {
    public let name: String
    let program: Program
    /// Kept to parse a thread's own copy (`PerThreadTemplates`).
    let source: String
    /// The size of the last rendering: the next one reserves that much up front and never regrows.
    private let lastRenderedSize: RenderedSize

    public init(_ source: String, name: String = "") throws(MustacheError) {
        let bytes = Array(source.utf8)
        self.name = name
        self.program = Program(try Parser.parse(bytes, templateName: name))
        self.source = source
        self.lastRenderedSize = RenderedSize(initial: bytes.count)
    }

    /// Renders without a library: partials and parents render as nothing.
    public func render(_ context: MustacheValue) throws(MustacheError) -> String {
        try render(context, library: nil) { $0.string }
    }

    public func render(_ context: some MustacheConvertible) throws(MustacheError) -> String {
        try render(context.mustacheValue)
    }

    /// Renders, then hands the output to `result` to copy it out in the form the caller needs.
    func render<Result>(_ context: MustacheValue, library: TemplateLibrary?,
                        _ result: (borrowing OutputBuffer) -> Result) throws(MustacheError) -> Result {
        let expectedSize = lastRenderedSize.value.load(ordering: .relaxed)
        var renderer = Renderer(library: library, capacity: expectedSize + expectedSize / 8)
        try renderer.render(program, in: context)
        lastRenderedSize.value.store(renderer.output.count, ordering: .relaxed)
        return result(renderer.output)
    }
}

private final class RenderedSize: Sendable {
    let value: Atomic<Int>

    init(initial: Int) {
        value = Atomic(initial)
    }
}
