import Foundation
import Mustache
import Testing

/// Every case of the official Mustache spec (`../shared/mustache-spec` beside the package),
/// lambdas excepted: this engine has none.
@Suite struct SpecTests {
    @Test(.enabled(if: OfficialSpec.isAvailable, "official spec folder not found at \(OfficialSpec.directory.path)"),
          arguments: OfficialSpec.cases)
    func specCase(_ specCase: SpecCase) throws {
        let library = try TemplateLibrary(templates: specCase.partials)
        let template = try Template(specCase.template, name: specCase.name)
        let rendered = try library.render(template, specCase.data)
        #expect(rendered == specCase.expected, "\(specCase.description)")
    }

    @Test(.enabled(if: OfficialSpec.isAvailable))
    func everySpecFileContributesCases() throws {
        let files = try OfficialSpec.specFiles()
        #expect(!files.isEmpty)
        for file in files {
            #expect(OfficialSpec.cases.contains { $0.file == file.lastPathComponent }, "\(file.lastPathComponent) has no case loaded")
        }
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
    /// `#filePath` is `<package>/Tests/MustacheTests/SpecTests.swift`; the spec sits beside the package.
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/mustache-spec")

    static var isAvailable: Bool { FileManager.default.fileExists(atPath: directory.path) }

    static let cases: [SpecCase] = (try? loadCases()) ?? []

    static func specFiles() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" && !$0.lastPathComponent.contains("lambdas") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    private static func loadCases() throws -> [SpecCase] {
        guard isAvailable else { return [] }
        return try specFiles().flatMap { file in
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
