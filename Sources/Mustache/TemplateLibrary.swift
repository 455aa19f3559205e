import Foundation
import Synchronization

/// Named templates that include each other: partials (`{{>name}}`) and parents (`{{<name}}`)
/// resolve by name. Loaded from a directory, a template's name is its path relative to that
/// directory without the `.mustache` extension: `"page"`, `"partials/card"`.
public final class TemplateLibrary: Sendable {
    public static let fileExtension = "mustache"

    private let fixedTemplates: PerThreadTemplates
    /// Present in development mode: templates are re-read when their file changes.
    private let reloadingStore: ReloadingStore?

    /// Loads (and parses, so syntax errors show at startup) every `*.mustache` file under `directory`.
    /// With `reload`, a template whose file changed is re-read before it is rendered.
    public init(directory: URL, reload: Bool = false) throws {
        var templates: [String: Template] = [:]
        var stamps: [String: FileStamp] = [:]
        let suffix = "." + Self.fileExtension
        for relativePath in try FileManager.default.subpathsOfDirectory(atPath: directory.path)
        where relativePath.hasSuffix(suffix) {
            let name = String(relativePath.dropLast(suffix.count))
            let path = directory.appendingPathComponent(relativePath).path
            stamps[name] = FileStamp(path: path)
            templates[name] = try ReloadingStore.loadTemplate(path: path, name: name)
        }
        if reload {
            fixedTemplates = PerThreadTemplates([:])
            reloadingStore = ReloadingStore(directory: directory, templates: templates, stamps: stamps)
        } else {
            fixedTemplates = PerThreadTemplates(templates)
            reloadingStore = nil
        }
    }

    /// A library held in memory, keyed by template name.
    public init(templates sources: [String: String]) throws(MustacheError) {
        var templates: [String: Template] = [:]
        for (name, source) in sources {
            templates[name] = try Template(source, name: name)
        }
        fixedTemplates = PerThreadTemplates(templates)
        reloadingStore = nil
    }

    public var templateNames: [String] {
        (reloadingStore?.names ?? Array(fixedTemplates.shared.keys)).sorted()
    }

    public func render(_ name: String, _ context: MustacheValue) throws(MustacheError) -> String {
        try template(required: name).render(context, library: self) { $0.string }
    }

    public func render(_ name: String, _ context: some MustacheConvertible) throws(MustacheError) -> String {
        try render(name, context.mustacheValue)
    }

    /// The rendering as UTF-8 bytes, ready to send without another copy.
    public func renderBytes(_ name: String, _ context: MustacheValue) throws(MustacheError) -> [UInt8] {
        try template(required: name).render(context, library: self) { $0.bytes }
    }

    /// Renders a template that is not part of the library, with the library's partials.
    public func render(_ template: Template, _ context: MustacheValue) throws(MustacheError) -> String {
        try template.render(context, library: self) { $0.string }
    }

    private func template(required name: String) throws(MustacheError) -> Template {
        guard let template = try template(named: name) else {
            throw MustacheError(templateName: name, line: nil, message: "no template named '\(name)' in the library")
        }
        return template
    }

    func template(named name: String) throws(MustacheError) -> Template? {
        guard let reloadingStore else { return fixedTemplates.templates[name] }
        return try reloadingStore.template(named: name)
    }
}

/// Development mode: templates checked against their file's modification time and size at each use.
private final class ReloadingStore: Sendable {
    private struct Entry {
        let template: Template
        let stamp: FileStamp?
    }

    private let directory: URL
    private let entries: Mutex<[String: Entry]>

    init(directory: URL, templates: [String: Template], stamps: [String: FileStamp]) {
        self.directory = directory
        entries = Mutex(templates.mapValues { Entry(template: $0, stamp: stamps[$0.name]) })
    }

    var names: [String] { entries.withLock { Array($0.keys) } }

    func template(named name: String) throws(MustacheError) -> Template? {
        // Names may come from data (`{{>*name}}`): never leave the directory.
        let components = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else { return nil }
        let path = directory.appendingPathComponent(name + "." + TemplateLibrary.fileExtension).path
        guard let stamp = FileStamp(path: path) else {
            entries.withLock { $0[name] = nil }
            return nil
        }
        if let entry = entries.withLock({ $0[name] }), entry.stamp == stamp { return entry.template }
        let template = try Self.loadTemplate(path: path, name: name)
        entries.withLock { $0[name] = Entry(template: template, stamp: stamp) }
        return template
    }

    static func loadTemplate(path: String, name: String) throws(MustacheError) -> Template {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw MustacheError(templateName: name, line: nil, message: "cannot read \(path)")
        }
        return try Template(String(decoding: data, as: UTF8.self), name: name)
    }
}

/// What tells a changed file apart without reading it.
private struct FileStamp: Equatable, Sendable {
    let seconds: Int
    let nanoseconds: Int
    let size: Int

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        seconds = info.st_mtimespec.tv_sec
        nanoseconds = info.st_mtimespec.tv_nsec
        #else
        seconds = info.st_mtim.tv_sec
        nanoseconds = info.st_mtim.tv_nsec
        #endif
        size = Int(info.st_size)
    }
}
