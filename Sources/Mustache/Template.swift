import Synchronization

/// A template parsed once, rendered many times.
public struct Template: Sendable {
    public let name: String
    let nodes: [Node]
    /// The size of the last rendering: the next one reserves that much up front and never regrows.
    private let lastRenderedSize: RenderedSize

    public init(_ source: String, name: String = "") throws(MustacheError) {
        let bytes = Array(source.utf8)
        self.name = name
        self.nodes = try Parser.parse(bytes, templateName: name)
        self.lastRenderedSize = RenderedSize(initial: bytes.count)
    }

    /// Renders without a library: partials and parents render as nothing.
    public func render(_ context: MustacheValue) throws(MustacheError) -> String {
        String(decoding: try renderBytes(context, library: nil), as: UTF8.self)
    }

    public func render(_ context: some MustacheConvertible) throws(MustacheError) -> String {
        try render(context.mustacheValue)
    }

    func renderBytes(_ context: MustacheValue, library: TemplateLibrary?) throws(MustacheError) -> [UInt8] {
        let expectedSize = lastRenderedSize.value.load(ordering: .relaxed)
        var renderer = Renderer(context: context, library: library, capacity: expectedSize + expectedSize / 8)
        try renderer.render(nodes)
        lastRenderedSize.value.store(renderer.output.bytes.count, ordering: .relaxed)
        return renderer.output.bytes
    }
}

private final class RenderedSize: Sendable {
    let value: Atomic<Int>

    init(initial: Int) {
        value = Atomic(initial)
    }
}
