import Mustache
import Testing

/// The renderer's shortcuts, checked against plain Swift: escaping eight bytes at a time, digits
/// written straight into the buffer, names found by comparing keys in small objects, partials
/// remembered within a rendering, and the context stack of borrowed values.
@Suite struct FastPathTests {
    /// What escaping must produce, written the obvious way.
    private static func referenceEscape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// Every escaped character, and multi-byte ones, at every offset around the eight-byte words.
    @Test(arguments: ["&", "<", ">", "\"", "'", "é", "“", "🏔", "?", "=", "%"])
    func escapesAtEveryOffsetOfAWord(special: String) throws {
        let template = try Template("{{text}}|{{{text}}}")
        for length in 0...19 {
            for position in 0...length {
                let filler = Array(repeating: "a", count: length)
                var text = filler
                text.insert(special, at: position)
                let value = text.joined()
                let rendered = try template.render(["text": .string(value)] as MustacheValue)
                #expect(rendered == Self.referenceEscape(value) + "|" + value, "length \(length), at \(position)")
            }
        }
    }

    @Test func escapesRunsOfSpecialsBesideMultibyteCharacters() throws {
        let value = "«<é>»&“'\"”🏔<<>>&&''\"\"Zürich→<Genève>"
        let rendered = try Template("{{value}}").render(["value": .string(value)] as MustacheValue)
        #expect(rendered == Self.referenceEscape(value))
    }

    @Test(arguments: [0, 7, 9, 10, 99, 100, 1_000_000, -1, -10, 123_456_789_012_345, Int.max, Int.min])
    func writesIntegersAsSwiftDoes(number: Int) throws {
        let rendered = try Template("[{{number}}]").render(["number": .int(number)] as MustacheValue)
        #expect(rendered == "[\(number)]")
    }

    /// Small objects are searched key by key, large ones hashed; both must find the same values.
    @Test(arguments: [1, 3, 8, 9, 40])
    func findsEveryKeyInObjectsOfAnySize(keyCount: Int) throws {
        // Keys of equal length, keys longer than a small string (15 bytes), and a non-ASCII one.
        let keys = (0..<keyCount).map { index in
            switch index % 4 {
            case 0: "k\(index)"
            case 1: "a_key_much_longer_than_fifteen_bytes_\(index)"
            case 2: "ké\(index)"
            default: "x\(index)y"
            }
        }
        let object = MustacheValue.object(Dictionary(uniqueKeysWithValues: keys.map { ($0, MustacheValue.string("<\($0)>")) }))
        for key in keys {
            let rendered = try Template("{{#object}}{{\(key)}}{{/object}}").render(["object": object] as MustacheValue)
            #expect(rendered == Self.referenceEscape("<\(key)>"))
        }
        let missing = try Template("{{#object}}[{{k}}{{kx}}{{K0}}]{{/object}}").render(["object": object] as MustacheValue)
        #expect(missing == "[]")
    }

    @Test func resolvesDeepDottedNamesAndStopsAtAMissingStep() throws {
        let context: MustacheValue = [
            "a": ["b": ["c": ["d": ["e": "deep"]]]],
            "x": ["y": "outer"],
            "inner": ["x": ["z": "shadow"]],
        ]
        let template = try Template("{{a.b.c.d.e}}|{{a.b.missing.d}}|{{#inner}}{{x.z}}/{{x.y}}{{/inner}}|{{#a.b.c}}{{d.e}}{{/a.b.c}}")
        // Inside `inner`, `x` is inner's: `x.y` does not fall back to the outer `x` (spec).
        #expect(try template.render(context) == "deep||shadow/|deep")
    }

    @Test func nestedListsPushAndPopTheirItems() throws {
        let context: MustacheValue = [
            "name": "outer",
            "rows": [
                ["name": "r1", "cells": [1, 2, 3]],
                ["cells": [["name": "cell"], 4]],
                ["name": "r3", "cells": []],
            ],
            "matrix": [[1, 2], [3], []],
        ]
        let template = try Template("{{#rows}}{{name}}:{{#cells}}{{name}}{{.}},{{/cells}};{{/rows}}{{name}}|{{#matrix}}({{#.}}{{.}}{{/.}}){{/matrix}}")
        #expect(try template.render(context) == "r1:r11,r12,r13,;outer:cell,outer4,;r3:;outer|(12)(3)()")
    }

    @Test func partialsRememberedWithinARenderingStillFollowTheirNames() throws {
        let library = try TemplateLibrary(templates: [
            "page": "{{#items}}{{>*kind}}{{>row}}{{>missing}}{{/items}}",
            "row": "[{{label}}]",
            "bold": "<b>{{label}}</b>",
            "plain": "{{label}}",
        ])
        let context: MustacheValue = ["items": [
            ["kind": "bold", "label": "a"], ["kind": "plain", "label": "b"],
            ["kind": "bold", "label": "c"], ["kind": "nowhere", "label": "d"],
        ]]
        #expect(try library.render("page", context) == "<b>a</b>[a]b[b]<b>c</b>[c][d]")
    }

    @Test func bytesAndStringRenderingsAgree() throws {
        let library = try TemplateLibrary(templates: ["page": "{{#items}}<p title='{{.}}'>{{.}} → ✓</p>\n{{/items}}"])
        let context: MustacheValue = ["items": .array((0..<300).map { .string("item \($0) & more") })]
        let bytes = try library.renderBytes("page", context)
        #expect(bytes == Array(try library.render("page", context).utf8))
        #expect(bytes.count > 10_000)  // beyond the first buffer: the copy-out spans regrown storage
    }
}
