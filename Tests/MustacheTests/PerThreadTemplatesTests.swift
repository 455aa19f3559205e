import Foundation
import Synchronization
import Testing
@testable import Mustache

@Suite struct PerThreadTemplatesTests {
    @Test func everyThreadRendersTheSamePageFromItsOwnCopy() throws {
        let library = try TemplateLibrary(templates: [
            "layout": "<main>{{$content}}none{{/content}}</main>",
            "item": "<li>{{name}}</li>",
            "page": "{{<layout}}{{$content}}<ul>{{#items}}{{>item}}{{/items}}</ul>{{/content}}{{/layout}}",
        ])
        let context: MustacheValue = ["items": [["name": "Kyoto"], ["name": "Zürich & <Bled>"]]]
        let expected = "<main><ul><li>Kyoto</li><li>Zürich &amp; &lt;Bled&gt;</li></ul></main>"
        #expect(try library.render("page", context) == expected)

        let results = Mutex<[String]>([])
        let threads = (0..<4).map { _ in
            Thread { results.withLock { $0.append((try? library.render("page", context)) ?? "failed") } }
        }
        threads.forEach { $0.start() }
        while results.withLock({ $0.count }) < threads.count { Thread.sleep(forTimeInterval: 0.001) }
        #expect(results.withLock { $0 } == Array(repeating: expected, count: threads.count))
    }
}
