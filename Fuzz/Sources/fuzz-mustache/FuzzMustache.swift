import Mustache

/// One input: a template source. Parse it; when it parses, render it against a context with
/// every kind of value, alone and as a partial of itself (recursion must be bounded).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMustache(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let source = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let template = try? Template(source) else { return 0 }
    _ = try? template.render(context)
    if let library = try? TemplateLibrary(templates: ["main": source, "a": "{{x}}{{>main}}"]) {
        _ = try? library.render("main", context)
    }
    return 0
}

private let context: MustacheValue = .object([
    "x": .string("<b>&\"'</b>"),
    "n": .int(3),
    "d": .double(0.5),
    "t": .bool(true),
    "f": .bool(false),
    "list": .array([.int(1), .object(["x": .string("inner")]), .array([])]),
    "obj": .object(["x": .null, "list": .array([.string("y")])]),
])
