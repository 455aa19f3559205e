import Mustache
import Testing

@Suite struct RenderingTests {
    @Test func escapesHTMLSignificantCharacters() throws {
        let template = try Template("<p>{{text}}</p>")
        let rendered = try template.render(["text": "<script>alert('hi') && \"x\"</script>"] as MustacheValue)
        #expect(rendered == "<p>&lt;script&gt;alert(&#39;hi&#39;) &amp;&amp; &quot;x&quot;&lt;/script&gt;</p>")
    }

    @Test func tripleMustacheAndAmpersandLeaveTextAsIs() throws {
        let template = try Template("{{{html}}}|{{&html}}")
        #expect(try template.render(["html": "<b>'&'</b>"] as MustacheValue) == "<b>'&'</b>|<b>'&'</b>")
    }

    @Test func escapingKeepsMultibyteTextIntact() throws {
        let template = try Template("{{text}}")
        #expect(try template.render(["text": "Zürich → <Genève> 🏔"] as MustacheValue) == "Zürich → &lt;Genève&gt; 🏔")
    }

    @Test func formatsScalars() throws {
        let template = try Template("{{int}} {{negative}} {{double}} {{yes}} {{no}} [{{nothing}}] [{{list}}]")
        let context: MustacheValue = ["int": 1234567, "negative": -42, "double": 2.5, "yes": true, "no": false,
                                      "nothing": nil, "list": [1, 2]]
        #expect(try template.render(context) == "1234567 -42 2.5 true false [] []")
    }

    @Test(arguments: [
        (MustacheValue.null, false), (.bool(false), false), (.int(0), false), (.double(0), false),
        (.string(""), false), (.array([]), false),
        (.bool(true), true), (.int(3), true), (.string("x"), true), (.array([1]), true), (.object([:]), true),
    ])
    func sectionTruthiness(value: MustacheValue, isTruthy: Bool) throws {
        let template = try Template("{{#value}}yes{{/value}}{{^value}}no{{/value}}")
        #expect(try template.render(["value": value] as MustacheValue) == (isTruthy ? "yes" : "no"))
    }

    @Test func swiftValuesConvert() throws {
        struct Item: MustacheConvertible {
            let name: String
            let note: String?
            var mustacheValue: MustacheValue { ["name": .init(name), "note": .init(note)] }
        }
        let template = try Template("{{#items}}{{name}}{{#note}} ({{.}}){{/note}};{{/items}} {{count}} {{ratio}} {{tags.first}}")
        let context: [String: MustacheValue] = [
            "items": .init([Item(name: "a", note: "n"), Item(name: "b", note: nil)]),
            "count": .init(Int64(7)),
            "ratio": .init(0.5),
            "tags": .init(["first": "x"]),
        ]
        #expect(try template.render(context) == "a (n);b; 7 0.5 x")
    }

    @Test func sectionsIterateListsAndReachOuterContext() throws {
        let template = try Template("{{#rows}}{{title}}/{{label}},{{/rows}}")
        let context: MustacheValue = ["title": "T", "rows": [["label": "a"], ["label": "b", "title": "U"]]]
        #expect(try template.render(context) == "T/a,U/b,")
    }

    @Test func literalContextNeedsNoAnnotation() throws {
        let template = try Template("{{greeting}}, {{#names}}{{.}} {{/names}}")
        #expect(try template.render(["greeting": "Hi", "names": ["Ann", "Bo"]]) == "Hi, Ann Bo ")
    }

    @Test func templateWithoutLibraryRendersPartialsAsNothing() throws {
        #expect(try Template("[{{>missing}}]").render(MustacheValue.null) == "[]")
    }
}
