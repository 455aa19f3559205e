import Foundation
import HTTPServer
import Mustache

// Serves one ~10 KB page rendered through the template engine on every request, so wrk can
// compare it with nginx serving the same bytes from a file. Usage: page-bench PORT [OUT_FILE]
// (OUT_FILE receives one rendering, for nginx to serve), or page-bench --renders N [THREADS]:
// renders the page N times in-process on each of THREADS threads (1 by default), no server, for
// a profiler (e.g. callgrind's instructions per render) or to see renders on several cores.

let arguments = CommandLine.arguments
let renderCount = arguments.count >= 3 && arguments[1] == "--renders" ? Int(arguments[2]) : nil
let threadCount = renderCount == nil ? 1 : arguments.count == 4 ? Int(arguments[3]) : 1
guard arguments.count >= 2, let port = renderCount == nil ? Int(arguments[1]) : 0, let threadCount, threadCount > 0 else {
    FileHandle.standardError.write(Data("usage: page-bench PORT [OUT_FILE] | page-bench --renders N [THREADS]\n".utf8))
    exit(64)
}

let templates = try TemplateLibrary(templates: [
    "layout": """
    <!doctype html>
    <html lang="en"><head><meta charset="utf-8"><title>{{$title}}Page{{/title}}</title>
    <link rel="stylesheet" href="/static/css/app.css"></head>
    <body><nav><ul>{{#tabs}}<li><a href="{{href}}"{{#current}} aria-current="page"{{/current}}>{{label}}</a></li>{{/tabs}}</ul></nav>
    <main>{{$content}}{{/content}}</main></body></html>
    """,
    "card": """
    <a class="card" href="/trips/{{id}}"><span class="card-image"><img src="/trips/{{id}}/thumbnail" width="480" height="360" alt="" loading="lazy">{{#activityCount}}<span class="chip">{{activityCount}} Activities</span>{{/activityCount}}</span><span class="card-name">{{name}}</span>{{#subtitle}}<span class="card-subtitle">{{subtitle}}</span>{{/subtitle}}</a>

    """,
    "page": """
    {{<layout}}{{$title}}Wishlist{{/title}}{{$content}}
    {{#collections}}<section class="collection"><h2>{{title}}</h2><div class="card-row">{{#trips}}{{>card}}{{/trips}}</div></section>
    {{/collections}}{{/content}}{{/layout}}
    """,
])

let seasons = ["Spring Escapes", "Summer Vibes", "Fall Getaways", "Winter Retreats"]
let context: MustacheValue = [
    "tabs": .array(["Wishlist", "Goals", "Search"].enumerated().map { index, label in
        ["href": .string("/\(label.lowercased())"), "label": .string(label), "current": .bool(index == 0)]
    }),
    "collections": .array(seasons.enumerated().map { season, title in
        ["title": .string(title), "trips": .array((0..<8).map { index in
            [
                "id": .int(season * 100 + index),
                "name": .string("Trip \(index) to the “\(title)” & beyond"),
                "subtitle": .string("A subtitle with <markup> to escape"),
                "activityCount": .int(index),
            ]
        })]
    }),
]

if let renderCount {
    let start = ContinuousClock.now
    // Every thread renders the same shared context, as the server's workers do.
    DispatchQueue.concurrentPerform(iterations: threadCount) { _ in
        for _ in 0..<renderCount { _ = try! templates.renderBytes("page", context) }
    }
    let elapsed = ContinuousClock.now - start
    let bytes = try templates.renderBytes("page", context).count
    print("\(threadCount) × \(renderCount) renders of \(bytes) bytes: \(elapsed / max(renderCount, 1)) per render on each thread")
    exit(0)
}

if arguments.count >= 3 {
    try templates.render("page", context).write(toFile: arguments[2], atomically: true, encoding: .utf8)
}

let server = Server(configuration: Server.Configuration(port: port)) { _ in
    .html(utf8: try templates.renderBytes("page", context))
}
try server.start()
print("ready on \(server.port)")
server.runUntilSignal()
