import Mustache
import Testing

@Suite struct SyntaxErrorTests {
    private func parseError(_ source: String) -> MustacheError? {
        do {
            _ = try Template(source, name: "page")
            return nil
        } catch {
            return error
        }
    }

    @Test func unclosedSectionNamesItsLine() throws {
        let error = try #require(parseError("<ul>\n  <li>\n{{#items}}\n  {{name}}\n</ul>\n"))
        #expect(error.templateName == "page")
        #expect(error.line == 3)
        #expect(error.message.contains("'{{#items}}' is never closed"))
        #expect(error.description.hasPrefix("template 'page', line 3: "))
    }

    @Test func mismatchedSectionEndNamesBothTags() throws {
        let error = try #require(parseError("{{#a}}\n{{#b}}\n{{/a}}\n{{/b}}"))
        #expect(error.line == 3)
        #expect(error.message == "'{{/a}}' does not match '{{#b}}' opened on line 2")
    }

    @Test func unclosedTagNamesItsLine() throws {
        let error = try #require(parseError("one\ntwo {{name\nthree"))
        #expect(error.line == 2)
        #expect(error.message.contains("unclosed tag"))
    }

    @Test func closingTagWithoutSection() throws {
        let error = try #require(parseError("a\n{{/a}}"))
        #expect(error.line == 2)
        #expect(error.message.contains("closes nothing"))
    }

    @Test(arguments: ["{{ }}", "{{#}}{{/}}", "{{a b}}", "{{=<% %>}}", "{{= | =}}"])
    func malformedTagsAreRejected(source: String) {
        #expect(parseError(source) != nil)
    }

    @Test func errorsInsideLibraryFilesNameTheTemplate() throws {
        #expect(throws: MustacheError(templateName: "partials/row", line: 1,
                                      message: "'{{#x}}' is never closed (expected a closing tag for 'x')")) {
            _ = try TemplateLibrary(templates: ["partials/row": "{{#x}}"])
        }
    }
}
