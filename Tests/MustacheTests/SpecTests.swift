import Foundation
import Mustache
import Testing

/// Every case of the official Mustache spec (github.com/mustache/spec, its JSON files and LICENSE
/// copied into `Spec/`), but those named in `OfficialSpec.skipped`. The optional lambdas module
/// is not copied: this engine takes values, never code.
@Suite struct SpecTests {
    @Test(arguments: OfficialSpec.casesToRun)
    func specCase(_ specCase: SpecCase) throws {
        let library = try TemplateLibrary(templates: specCase.partials)
        let template = try Template(specCase.template, name: specCase.name)
        let rendered = try library.render(template, specCase.data)
        #expect(rendered == specCase.expected, "\(specCase.description)")
    }

    /// Fails, rather than running no case, when the copy is missing or unreadable; keeps the
    /// skip list naming real cases.
    @Test func theSpecIsHereAndEveryFileContributesCases() throws {
        let cases = try OfficialSpec.loaded.get()
        let files = try OfficialSpec.specFiles().map(\.lastPathComponent)
        let required = ["comments", "delimiters", "interpolation", "inverted", "partials", "sections"]
        #expect(Set(required.map { "\($0).json" }).isSubset(of: files), "the spec's files in \(OfficialSpec.directory.path)")
        for file in files {
            #expect(cases.contains { $0.file == file }, "\(file) has no case loaded")
        }
        for name in OfficialSpec.skipped.keys {
            #expect(cases.contains { $0.testDescription == name }, "skip list names \(name), which the spec does not have")
        }
        print("Mustache spec: \(OfficialSpec.casesToRun.count) cases run, \(OfficialSpec.skipped.count) skipped")
    }
}

struct SpecCase: Sendable, CustomTestStringConvertible {
    let file: String
    let name: String
    let description: String
    let template: String
    let data: MustacheValue
    let partials: [String: String]
    let expected: String

    var testDescription: String { "\(file): \(name)" }
}

enum OfficialSpec {
    /// The cases not run, as "file: name", each with its reason.
    static let skipped: [String: String] = [:]

    /// `#filePath` is `Tests/MustacheTests/SpecTests.swift`; the copy is beside it.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Spec")

    static let loaded = Result { try loadCases() }

    static var casesToRun: [SpecCase] {
        ((try? loaded.get()) ?? []).filter { skipped[$0.testDescription] == nil }
    }

    static func specFiles() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    private static func loadCases() throws -> [SpecCase] {
        try specFiles().flatMap { file in
            let spec = try JSONDecoder().decode(SpecFile.self, from: Data(contentsOf: file))
            return spec.tests.map { test in
                SpecCase(file: file.lastPathComponent, name: test.name, description: test.desc,
                         template: test.template, data: test.data.value,
                         partials: test.partials ?? [:], expected: test.expected)
            }
        }
    }

    private struct SpecFile: Decodable {
        let tests: [Test]
    }

    private struct Test: Decodable {
        let name: String
        let desc: String
        let data: JSONValue
        let template: String
        let partials: [String: String]?
        let expected: String
    }
}

/// A JSON value read into a `MustacheValue`, keeping booleans, integers and decimals apart.
struct JSONValue: Decodable {
    let value: MustacheValue

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            value = .null
        } else if let flag = try? container.decode(Bool.self) {
            value = .bool(flag)
        } else if let integer = try? container.decode(Int.self) {
            value = .int(integer)
        } else if let number = try? container.decode(Double.self) {
            value = .double(number)
        } else if let string = try? container.decode(String.self) {
            value = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            value = .array(array.map(\.value))
        } else {
            value = .object(try container.decode([String: JSONValue].self).mapValues(\.value))
        }
    }
}
