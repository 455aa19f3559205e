import Testing
@testable import HTTPServer

@Suite struct PercentEncodingTests {
    private func pairs(_ fields: FieldList?) -> [String]? {
        fields?.pairs.map { "\($0.name)=\($0.value)" }
    }

    @Test(arguments: [
        ("a=1&b=2", ["a=1", "b=2"]),
        ("name=Oslo+%C3%A5&_csrf=x&name=2", ["name=Oslo å", "_csrf=x", "name=2"]),
        ("a=&=b&&c", ["a=", "=b", "c="]),
        ("&a=b=c&", ["a=b=c"]),
        ("%41%62+c=%7e", ["Ab c=~"]),
        ("é=ü+ñ", ["é=ü ñ"]),
        ("k=e%CC%81", ["k=e\u{301}"]),
        ("", []),
    ] as [(String, [String])])
    func formsAndQueriesDecodeTheirPairsInOrder(text: String, expected: [String]) {
        #expect(pairs(PercentEncoding.parseForm(text)) == expected)
        #expect(pairs(PercentEncoding.parseFields(text)) == expected)
    }

    /// A form with one pair that does not decode is refused whole (a field must never go
    /// missing silently); a query string drops just that pair.
    @Test(arguments: ["a=%4", "a=%zz&b=1", "a=%00&b=1", "a=%FF&b=1", "%C3=1&b=1"])
    func anUndecodablePairRefusesAFormAndIsDroppedFromAQuery(text: String) {
        #expect(PercentEncoding.parseForm(text) == nil)
        #expect(pairs(PercentEncoding.parseFields(text)) == (text.hasSuffix("&b=1") ? ["b=1"] : []))
    }

    @Test func pathsKeepPlusAndRefuseNul() {
        #expect(PercentEncoding.decode("/a+b%20c", plusAsSpace: false) == "/a+b c")
        #expect(PercentEncoding.decode("/a%00", plusAsSpace: false) == nil)
        #expect(PercentEncoding.decode("/caf%C3%A9", plusAsSpace: false) == "/café")
    }
}
