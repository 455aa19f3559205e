import Foundation
import Synchronization
import Testing
import TestSupport
@testable import HTTPServer

@Suite struct RoutingTests {
    static func router() -> Router {
        var router = Router()
        router.get("/items/:id") { request in .text("item \(request.parameters["id"] ?? "?") q=\(request.query["q"] ?? "")") }
        router.post("/items") { request in .text("created \(request.form["name"] ?? "") tags=\(request.form.all("tag"))", status: .created) }
        router.delete("/items/:id") { request in .text("deleted \(request.parameters["id"] ?? "")") }
        router.get("/fail") { _ in throw CocoaLikeError() }
        router.get("/teapot") { _ in throw HTTPError(.unprocessableContent, "No <tea>.") }
        return router
    }

    struct CocoaLikeError: Error {}

    @Test func routesWithParametersAndQuery() throws {
        try withServer(handler: Self.router().respond) { server throws in
            let client = try SocketClient(port: server.port)
            let reply = try client.request("GET", "/items/42?q=caf%C3%A9+au+lait")
            #expect(reply.status == 200)
            #expect(reply.text == "item 42 q=café au lait")
            // The same connection stays open for the next request (keep-alive).
            let second = try client.request("GET", "/items/a%20b")
            #expect(second.text == "item a b q=")
        }
    }

    @Test func unknownPathIs404AndWrongMethodIs405WithAllow() throws {
        try withServer(handler: Self.router().respond) { server throws in
            let client = try SocketClient(port: server.port)
            #expect(try client.request("GET", "/nowhere").status == 404)
            let reply = try client.request("PUT", "/items/1", body: Array("x".utf8))
            #expect(reply.status == 405)
            #expect(reply.header("Allow") == "GET, HEAD, DELETE")
        }
    }

    @Test func urlEncodedFormAndMethodOverride() throws {
        try withServer(handler: Self.router().respond) { server throws in
            let client = try SocketClient(port: server.port)
            let form = Array("name=Blue+Lake&tag=a&tag=b%26c".utf8)
            let reply = try client.request("POST", "/items", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: form)
            #expect(reply.status == 201)
            #expect(reply.text == #"created Blue Lake tags=["a", "b&c"]"#)
            let override = try client.request("POST", "/items/7", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                               body: Array("_method=DELETE".utf8))
            #expect(override.text == "deleted 7")
        }
    }

    @Test func thrownErrorsBecomeErrorPagesAndServingContinues() throws {
        try withServer(handler: Self.router().respond) { server throws in
            let client = try SocketClient(port: server.port)
            let failure = try client.request("GET", "/fail")
            #expect(failure.status == 500)
            #expect(failure.header("Content-Type")?.hasPrefix("text/html") == true)
            let teapot = try client.request("GET", "/teapot")
            #expect(teapot.status == 422)
            #expect(teapot.text.contains("No &lt;tea&gt;."))
            #expect(try SocketClient(port: server.port).request("GET", "/items/1").status == 200)
        }
    }

    @Test func headAnswersLikeGetWithoutBody() throws {
        try withServer(handler: Self.router().respond) { server throws in
            let client = try SocketClient(port: server.port)
            let head = try client.request("HEAD", "/items/5", expectBody: false)
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == "\("item 5 q=".utf8.count)")
            // Had a body been sent, it would now be read as the next reply's status line.
            let next = try client.request("GET", "/items/6")
            #expect(next.text == "item 6 q=")
        }
    }

    /// Registered in the order that would shadow them if the first match won.
    static func overlappingRouter() -> Router {
        var router = Router()
        router.get("/items/:id") { request in .text("item \(request.parameters["id"] ?? "?")") }
        router.get("/items/new") { _ in .text("new") }
        router.get("/items/:id/edit") { request in .text("edit \(request.parameters["id"] ?? "?")") }
        router.get("/:section/:id/edit") { request in .text("section \(request.parameters["section"] ?? "?")") }
        router.get("/items/:id/:view") { request in .text("view \(request.parameters["view"] ?? "?")") }
        router.get("/:section/new/:view") { request in .text("new view \(request.parameters["view"] ?? "?")") }
        router.post("/items") { _ in .text("created") }
        router.get("/") { _ in .text("home") }
        return router
    }

    @Test func literalSegmentsWinOverParametersWhateverTheOrderAndLengthsDoNotMix() throws {
        let router = Self.overlappingRouter()
        #expect(router.routes.map(\.pattern) == ["/items/:id", "/items/new", "/items/:id/edit", "/:section/:id/edit",
                                                 "/items/:id/:view", "/:section/new/:view", "/items", "/"])
        func text(_ method: HTTPMethod, _ path: String) throws -> String {
            guard case .bytes(let bytes) = try router.respond(to: Request(method: method, path: path)).body else { return "" }
            return String(decoding: bytes, as: UTF8.self)
        }
        #expect(try text(.get, "/items/new") == "new")
        #expect(try text(.get, "/items/7") == "item 7")
        #expect(try text(.get, "//items//7/edit/") == "edit 7")
        #expect(try text(.get, "/things/7/edit") == "section things")
        #expect(try text(.get, "/items/7/photo") == "view photo")
        // The leftmost difference decides: `items` is a literal where the other has `:section`.
        #expect(try text(.get, "/items/new/photo") == "view photo")
        #expect(try text(.get, "/things/new/photo") == "new view photo")
        #expect(try text(.get, "/") == "home")
        #expect(try text(.post, "/items") == "created")
        for (method, path, status) in [(HTTPMethod.get, "/items", 405), (.get, "/items/7/edit/more", 404), (.get, "/a/b/c/d/e/f", 404),
                                       (.post, "/items/7", 405), (.get, "/other", 404)] {
            #expect(throws: HTTPError.self) { try router.respond(to: Request(method: method, path: path)) }
            do { _ = try router.respond(to: Request(method: method, path: path)) } catch let error as HTTPError {
                #expect(error.status.code == status, "\(method) \(path)")
            }
        }
    }

    @Test func theSameShapeForOtherMethodsOrLengthsIsNoClash() throws {
        var router = Router()
        router.get("/items/:id") { _ in .text("get") }
        router.post("/items/:itemID") { _ in .text("post") }
        router.get("/items/:id/:view") { _ in .text("view") }
        #expect(router.routes.count == 3)
    }

    /// Parameters of another name in the same places, and the same literal path twice (the
    /// slashes do not count), registered after a route of another method and a literal neighbour.
    @Test(arguments: [("/trips/:id", "/trips/:tripID"), ("/items", "//items/")])
    func aPatternMatchingTheSamePathsAsAnotherIsRejectedNamingBoth(_ first: String, _ second: String) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [first, second] in
            var router = Router()
            router.post(first) { _ in .text("") }
            router.post("/trips/new") { _ in .text("") }
            router.get(second) { _ in .text("") }
            router.post(second) { _ in .text("") }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("POST \(second) clashes with POST \(first)"), "\(message)")
    }

    @Test func badPathsAre400() throws {
        try withServer(handler: Self.router().respond) { server throws in
            #expect(try SocketClient(port: server.port).request("GET", "/items/a%00b").status == 400)
            #expect(try SocketClient(port: server.port).request("GET", "/items/%FF").status == 400)
            #expect(try SocketClient(port: server.port).request("GET", "/items/%zz").status == 400)
        }
    }

    @Test func portInUseIsReportedClearly() throws {
        try withServer(handler: Self.router().respond) { server throws in
            let second = Server(configuration: .init(port: server.port), responder: Self.router().respond)
            #expect(throws: ServerError.self) { try second.start() }
            do { try second.start() } catch {
                #expect("\(error)" == "port \(server.port) is already in use")
            }
        }
    }
}

@Suite struct ServerLifecycleTests {
    @Test func customErrorPageRendersEveryError() throws {
        let configuration = Server.Configuration(threadCount: 2, errorPage: { status, message, request in
            .text("custom \(status.code) \(message) for \(request?.path ?? "unread request")", status: status)
        })
        try withServer(configuration, handler: RoutingTests.router().respond) { server throws in
            #expect(try SocketClient(port: server.port).request("GET", "/nowhere").text
                == "custom 404 There is no page at this address. for /nowhere")
            #expect(try SocketClient(port: server.port).request("GET", "/bad%zz").text.hasPrefix("custom 400"))
        }
    }

    /// Stopping quiesced the daemon first, and libmicrohttpd's quiesce races a pool worker that
    /// woke for a new connection to take the listening socket out of its epoll set: the loser's
    /// `epoll_ctl` fails and it aborts the process ("Failed to remove listen FD from epoll set").
    @Test func aServerStopsWhileConnectionsArrive() throws {
        for _ in 0..<2_000 {
            let server = Server(configuration: .init(threadCount: 2)) { _ in .text("up") }
            try server.start()
            let port = server.port
            let isStopped = Atomic(false)
            let clientsEnded = DispatchSemaphore(value: 0)
            for _ in 0..<2 {
                Thread.detachNewThread {
                    while !isStopped.load(ordering: .relaxed) {
                        _ = try? SocketClient(port: port).request("GET", "/")
                    }
                    clientsEnded.signal()
                }
            }
            usleep(UInt32.random(in: 0...3_000))
            server.stop()
            isStopped.store(true, ordering: .relaxed)
            for _ in 0..<2 { clientsEnded.wait() }
            #expect(throws: TestFailure.self) { try SocketClient(port: port) }
        }
    }

    @Test func runUntilSignalStopsOnSigterm() throws {
        let server = Server(configuration: .init(threadCount: 2)) { _ in .text("up") }
        try server.start()
        let port = server.port
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            server.runUntilSignal()
            finished.signal()
        }
        // Wait until Dispatch's handler for SIGTERM is installed (neither SIG_DFL = 0 nor
        // SIG_IGN = 1), so the signal can neither end the test process nor be lost.
        var action = sigaction()
        let deadline = Date().addingTimeInterval(5)
        repeat {
            usleep(10_000)
            sigaction(SIGTERM, nil, &action)
        } while unsafeBitCast(action.__sigaction_handler, to: Int.self) <= 1 && Date() < deadline
        #expect(try SocketClient(port: port).request("GET", "/").text == "up")
        kill(getpid(), SIGTERM)
        #expect(finished.wait(timeout: .now() + 5) == .success)
        #expect(throws: (any Error).self) { try SocketClient(port: port).request("GET", "/") }
    }
}
