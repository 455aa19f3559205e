import Foundation
import Glibc
import HTTPServer
import Testing
import TestSupport
import WishlistWeb

/// `wishlist serve` as a process: beyond loopback it will not start without a password from the
/// environment, and with a password every page needs a session. Only loopback is ever contacted.
@Suite struct ServePasswordTests {
    /// The `wishlist` executable built beside this test bundle.
    static let executable: URL = {
        let beside = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("wishlist")
        return FileManager.default.isExecutableFile(atPath: beside.path) ? beside
            : LiveServer.resources.appendingPathComponent(".build/debug/wishlist")
    }()

    /// A data folder as a first start leaves it, made once per test process by the executable
    /// itself: a fresh `wishlist` process spends seconds seeding (it draws the sample photos), and
    /// most tests of the process only need a folder to serve.
    static let seededFolder: Result<String, any Error> = Result {
        let folder = NSTemporaryDirectory() + "wishlist-seeded-" + UUID().uuidString
        let process = Process()
        process.executableURL = executable
        process.arguments = ["token", "list", "--data-dir", folder]
        process.environment = ["PATH": "/usr/bin:/bin"]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestFailure("seeding \(folder) failed") }
        atexit { try? FileManager.default.removeItem(atPath: try ServePasswordTests.seededFolder.get()) }
        return folder
    }

    /// A started `wishlist serve`, stopped with SIGTERM when released. Its output goes to files,
    /// not pipes: a pipe's write end inherited by another test's child would keep a read waiting.
    final class ServeProcess {
        let process = Process()
        let folder = NSTemporaryDirectory() + "wishlist-serve-" + UUID().uuidString
        var outputPath: String { folder + "/stdout" }
        var errorPath: String { folder + "/stderr" }

        /// `seeded`: its `data` folder starts as a copy of `seededFolder`; false: it has none, so
        /// the process makes (and seeds) it, for tests of what a first start does.
        init(arguments: [String], environment: [String: String], seeded: Bool = true) throws {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            if seeded { try FileManager.default.copyItem(atPath: ServePasswordTests.seededFolder.get(), toPath: folder + "/data") }
            for path in [outputPath, errorPath] { _ = FileManager.default.createFile(atPath: path, contents: nil) }
            process.executableURL = ServePasswordTests.executable
            process.arguments = ["serve", "--port", "0", "--data-dir", folder + "/data",
                                 "--resources", LiveServer.resources.path] + arguments
            // Nothing inherited: a password in the test runner's environment must not leak in.
            process.environment = ["PATH": "/usr/bin:/bin"].merging(environment) { $1 }
            process.standardOutput = FileHandle(forWritingAtPath: outputPath)
            process.standardError = FileHandle(forWritingAtPath: errorPath)
            try process.run()
        }

        deinit {
            if process.isRunning { kill(process.processIdentifier, SIGTERM) }
            if !waitForExit() { kill(process.processIdentifier, SIGKILL) }
            try? FileManager.default.removeItem(atPath: folder)
        }

        /// The port from the ready line (waiting up to 10 s for it).
        func readyPort(scheme: String = "http") throws -> Int {
            let prefix = "Wishlist is ready at \(scheme)://127.0.0.1:"
            let deadline = ContinuousClock.now + .seconds(10)
            var line: Substring?
            while line == nil, ContinuousClock.now < deadline {
                line = Self.contents(of: outputPath).split(separator: "\n").first { $0.hasPrefix(prefix) }
                if line == nil { usleep(10_000) }
            }
            let ready = try #require(line, "no ready line; stderr: \(Self.contents(of: errorPath))")
            return try #require(Int(ready.dropFirst(prefix.count).filter(\.isNumber)))
        }

        /// Waits (up to 10 s) for the process to end; returns its status and what it wrote to stderr.
        func exit() -> (status: Int32, message: String) {
            guard waitForExit() else {
                Issue.record("wishlist serve is still running")
                return (0, "")
            }
            return (process.terminationStatus, Self.contents(of: errorPath))
        }

        private func waitForExit() -> Bool {
            let deadline = ContinuousClock.now + .seconds(10)
            while process.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
            return !process.isRunning
        }

        static func contents(of path: String) -> String {
            (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        }
    }

    @Test(arguments: ["0.0.0.0", "::", "10.1.2.3"])
    func beyondLoopbackWithoutAPasswordItRefusesToStart(_ host: String) throws {
        let serve = try ServeProcess(arguments: ["--host", host], environment: [:])
        let (status, message) = serve.exit()
        #expect(status != 0)
        #expect(message.contains("Refusing to listen on \(host)"))
        #expect(message.contains("WISHLIST_PASSWORD") && message.contains("WISHLIST_PASSWORD_FILE"))
    }

    @Test func anEmptyOrUnreadablePasswordIsNotAPassword() throws {
        for environment in [["WISHLIST_PASSWORD": ""], ["WISHLIST_PASSWORD_FILE": "/nonexistent/password"],
                            ["WISHLIST_PASSWORD": "a", "WISHLIST_PASSWORD_FILE": "/dev/null"]] {
            let (status, message) = try ServeProcess(arguments: ["--host", "0.0.0.0"], environment: environment).exit()
            #expect(status != 0 && message.hasPrefix("wishlist: "), "\(environment)")
        }
    }

    @Test func thePasswordIsNeverACommandLineArgument() throws {
        let (status, message) = try ServeProcess(arguments: ["--password", "secret"], environment: [:]).exit()
        #expect(status != 0 && message.contains("Unknown option “--password”"))
    }

    @Test func withAPasswordEveryPageNeedsASession() throws {
        let serve = try ServeProcess(arguments: ["--host", "127.0.0.1"], environment: ["WISHLIST_PASSWORD": "open sesame"])
        let port = try serve.readyPort()
        try expectPasswordProtected(port: port, password: "open sesame")
    }

    @Test func thePasswordCanComeFromAFile() throws {
        let file = NSTemporaryDirectory() + "wishlist-password-" + UUID().uuidString
        try "from a file\n".write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let serve = try ServeProcess(arguments: [], environment: ["WISHLIST_PASSWORD_FILE": file])
        try expectPasswordProtected(port: try serve.readyPort(), password: "from a file")
    }

    @Test func onLoopbackWithoutAPasswordThereIsNoLogin() throws {
        let serve = try ServeProcess(arguments: [], environment: [:])
        let client = Endpoint(port: try serve.readyPort())
        #expect(try client.get("/api/goals").status == 200)
        #expect(try client.get("/login").status == 404)
    }

    func expectPasswordProtected(port: Int, password: String) throws {
        let client = Endpoint(port: port)
        let page = try client.get("/", headers: ["Accept": "text/html"])
        #expect(page.status == 303 && page.header("Location") == "/login")
        let refusals = try ["/api/trips", "/events?topics=goals-achieved", "/trips/1"].map { path in
            let reply = try client.get(path)
            #expect(reply.status == 401, "\(path)")
            #expect(reply.header("Content-Type")?.contains("event-stream") != true)
            return reply.text
        }
        // The login page and its stylesheet are served without a session.
        let login = try client.get("/login")
        #expect(login.status == 200 && login.text.contains("type=\"password\"") && login.text.contains("Sign In"))
        #expect(try client.get("/static/css/app.css").status == 200)
        let token = try #require(login.cookie(CSRFProtection.cookieName))

        let wrong = try client.post("/login", form: [("password", password + "x")], token: token)
        #expect(wrong.status == 403 && wrong.text.contains("That password isn’t right."))
        #expect(wrong.cookie(Self.sessionCookie) == nil)

        let right = try client.post("/login", form: [("password", password)], token: token)
        #expect(right.status == 303 && right.header("Location") == "/")
        let session = try #require(right.cookie(Self.sessionCookie))
        let cookies = ["Cookie": "\(Self.sessionCookie)=\(session); \(CSRFProtection.cookieName)=\(token)"]
        let trips = try client.get("/api/trips", headers: cookies)
        #expect(trips.status == 200)
        let firstTrip = try #require(try JSONDecoder().decode(TripNames.self, from: Data(trips.body)).trips.first?.name)
        for text in refusals { #expect(!text.contains(firstTrip)) }
        let home = try client.get("/", headers: cookies)
        #expect(home.status == 200 && home.text.contains("Sign Out"))

        let logout = try client.post("/logout", form: [], token: token, headers: ["Cookie": "\(Self.sessionCookie)=\(session)"])
        #expect(logout.status == 303 && logout.header("Location") == "/login")
        #expect(try client.get("/api/trips", headers: cookies).status == 401)
    }

    /// The app's own name for its session cookie.
    static let sessionCookie = WishlistApp.Configuration(resourcesDirectory: LiveServer.resources).passwordOptions.sessionCookieName

    struct TripNames: Decodable {
        struct Trip: Decodable { let name: String }
        let trips: [Trip]
    }
}
