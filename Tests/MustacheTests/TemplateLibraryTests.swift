import Foundation
import Mustache
import Testing

/// Libraries loaded from real files in a temporary directory.
@Suite struct TemplateLibraryTests {
    private let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
        try directory.write("layout.mustache", """
            <html>
            <head><title>{{$title}}Untitled{{/title}}</title></head>
            <body>
              {{$content}}
              <p>No content</p>
              {{/content}}
            </body>
            </html>

            """)
        try directory.write("page.mustache", """
            {{<layout}}
            {{$title}}{{name}} – list{{/title}}
            {{$content}}
            <ul>
              {{#items}}
              {{>partials/card}}
              {{/items}}
            </ul>
            {{/content}}
            {{/layout}}

            """)
        try directory.write("partials/card.mustache", "<li class=\"card\">{{label}}</li>\n")
        try directory.write("plain.mustache", "{{$title}}Untitled{{/title}}\n")
        try directory.write("notes.txt", "not a template {{")
    }

    @Test func loadsEveryTemplateUnderTheDirectoryByRelativeName() throws {
        let library = try TemplateLibrary(directory: directory.url)
        #expect(library.templateNames == ["layout", "page", "partials/card", "plain"])
    }

    @Test func pageOverridesLayoutBlocksAndUsesPartialFromSubfolder() throws {
        let library = try TemplateLibrary(directory: directory.url)
        let rendered = try library.render("page", ["name": "Q&A", "items": [["label": "one"], ["label": "<two>"]]] as MustacheValue)
        #expect(rendered == """
            <html>
            <head><title>Q&amp;A – list</title></head>
            <body>
              <ul>
                <li class="card">one</li>
                <li class="card">&lt;two&gt;</li>
              </ul>
            </body>
            </html>

            """)
    }

    @Test func layoutRendersDefaultsWithoutOverrides() throws {
        let library = try TemplateLibrary(directory: directory.url)
        let rendered = try library.render("layout", MustacheValue.null)
        #expect(rendered.contains("<title>Untitled</title>"))
        #expect(rendered.contains("  <p>No content</p>\n"))
    }

    @Test func unknownTemplateIsAnError() throws {
        let library = try TemplateLibrary(directory: directory.url)
        #expect(throws: MustacheError.self) { try library.render("nope", MustacheValue.null) }
    }

    @Test func reloadPicksUpAChangedFile() throws {
        let library = try TemplateLibrary(directory: directory.url, reload: true)
        #expect(try library.render("plain", MustacheValue.null) == "Untitled\n")
        try directory.write("plain.mustache", "Changed: {{name}}\n")
        #expect(try library.render("plain", ["name": "x"] as MustacheValue) == "Changed: x\n")
        try directory.write("partials/card.mustache", "<li>{{label}}!</li>\n")
        let page = try library.render("page", ["items": [["label": "a"]]] as MustacheValue)
        #expect(page.contains("<li>a!</li>"))
    }

    @Test func rendersConcurrently() async throws {
        let library = try TemplateLibrary(directory: directory.url, reload: true)
        let expected = try library.render("page", ["name": "x", "items": [["label": "a"]]] as MustacheValue)
        try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 {
                group.addTask { try library.render("page", ["name": "x", "items": [["label": "a"]]] as MustacheValue) }
            }
            for try await rendered in group {
                #expect(rendered == expected)
            }
        }
    }

    @Test func withoutReloadTheLoadedTemplateStays() throws {
        let library = try TemplateLibrary(directory: directory.url)
        try directory.write("plain.mustache", "Changed\n")
        #expect(try library.render("plain", MustacheValue.null) == "Untitled\n")
    }

    @Test func syntaxErrorInAFileNamesFileAndLine() throws {
        try directory.write("partials/broken.mustache", "ok\n{{#open}}\n")
        #expect(throws: MustacheError(templateName: "partials/broken", line: 2,
                                      message: "'{{#open}}' is never closed (expected a closing tag for 'open')")) {
            _ = try TemplateLibrary(directory: directory.url)
        }
    }

    @Test func dynamicPartialNamesCannotLeaveTheDirectory() throws {
        let inner = try TemporaryDirectory(inside: directory)
        try inner.write("page.mustache", "[{{>*name}}]")
        let library = try TemplateLibrary(directory: inner.url, reload: true)
        #expect(try library.render("page", ["name": "../plain"] as MustacheValue) == "[]")
    }

    @Test func selfIncludingPartialStopsWithAnError() throws {
        let library = try TemplateLibrary(templates: ["loop": "x{{>loop}}"])
        #expect(throws: MustacheError.self) { try library.render("loop", MustacheValue.null) }
    }
}

/// A fresh directory, removed when the last copy goes away.
final class TemporaryDirectory: Sendable {
    let url: URL

    init(inside parent: TemporaryDirectory? = nil) throws {
        let base = parent?.url ?? FileManager.default.temporaryDirectory
        url = base.appendingPathComponent("mustache-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func write(_ relativePath: String, _ contents: String) throws {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: file)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
