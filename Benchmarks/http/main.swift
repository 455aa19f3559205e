import Foundation
import HTTPServer

// The HTTP path alone: a fixed 20 KB HTML page (as a page cache would hold it) answered through
// the server, with or without the app's middleware, for wrk to compare with nginx serving the
// same bytes from a file. Usage: http-bench PORT chain|bare DIR
// Writes DIR/page.html (the bytes served at /page) and serves DIR as the static file root.

let arguments = CommandLine.arguments
guard arguments.count == 4, let port = Int(arguments[1]), ["chain", "bare"].contains(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: http-bench PORT chain|bare DIR\n".utf8))
    exit(64)
}
let directory = arguments[3]

/// About 20 KB of HTML with the shape of a list page: the same bytes on every run.
let page: [UInt8] = {
    var html = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Page</title>"
        + "<link rel=\"stylesheet\" href=\"/static/page.html\"></head><body><main>\n"
    var index = 0
    while html.utf8.count < 20 * 1024 - 200 {
        html += "<a class=\"card\" href=\"/items/\(index)\"><span class=\"card-name\">Item \(index)</span>"
            + "<span class=\"card-subtitle\">A subtitle of item number \(index)</span></a>\n"
        index += 1
    }
    return Array((html + "</main></body></html>\n").utf8)
}()
try Data(page).write(to: URL(fileURLWithPath: directory).appendingPathComponent("page.html"))

var router = Router()
// Routes of the app's shapes ahead of the page, so finding it walks a table of the app's size.
for pattern in ["/", "/items", "/items/new", "/items/:id", "/items/:id/edit", "/items/:id/delete", "/items/:id/photo",
                "/items/:id/thumbnail", "/groups/:group", "/parts/:id/delete", "/goals", "/search", "/events",
                "/api/items", "/api/items/:id", "/api/goals", "/api/search", "/api/history", "/api/history/stream"] {
    router.get(pattern) { _ in .text("") }
    router.post(pattern) { _ in .text("") }
}
router.get("/page") { _ in .html(utf8: page) }
// The app's head checks and middleware in the app's order (WishlistApp.makeResponder and
// headChecks), without a password and with its access log off, as `wishlist serve` runs.
let isBare = arguments[2] == "bare"
let bearerAuthentication = BearerAuthentication(paths: ["/api"]) { _ in nil }
let middleware: [any Middleware] = isBare ? [] : [
    SecurityHeaders(), CrossSiteReadProtection(paths: ["/api", "/events", "/items/*/photo", "/items/*/thumbnail"]),
    try StaticFiles(root: directory, prefix: "/static/"), bearerAuthentication, CSRFProtection(),
    ErrorPages(render: Server.plainErrorPage),
]
var configuration = Server.Configuration(port: port)
configuration.headChecks = isBare ? [] : [HostValidation(), bearerAuthentication, CSRFProtection()]
let server = Server(configuration: configuration, responder: chain(middleware, to: router.respond))
try server.start()
print("ready on \(server.port)")
server.runUntilSignal()
