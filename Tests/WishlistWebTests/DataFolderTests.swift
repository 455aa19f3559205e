import Foundation
import Glibc
import HTTPServer
import Testing
import TestSupport
import WishlistCore

/// `wishlist serve` as a process and its data folder: one server per folder, nothing created
/// when the port is taken, a damaged database explained, every file private.
@Suite struct DataFolderTests {
    typealias ServeProcess = ServePasswordTests.ServeProcess

    @Test func aSecondServeOnTheSameFolderRefusesAndNamesTheFirst() throws {
        let first = try ServeProcess(arguments: [], environment: [:])
        let port = try first.readyPort()
        let second = try ServeProcess(arguments: ["--data-dir", first.folder + "/data"], environment: [:])
        let (status, message) = second.exit()
        #expect(status != 0)
        #expect(message.contains("pid \(first.process.processIdentifier) (wishlist serve)"), "\(message)")
        #expect(message.contains("is using the data folder \(first.folder)/data"))
        #expect(try Endpoint(port: port).get("/api/goals").status == 200)
    }

    @Test func aPortInUseFailsTheStartBeforeTheDataFolderIsMade() throws {
        let taken = try ListeningSocket(host: "127.0.0.1", port: 0)
        let serve = try ServeProcess(arguments: ["--port", String(taken.port)], environment: [:], seeded: false)
        let (status, message) = serve.exit()
        #expect(status != 0 && message.contains(String(taken.port)), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: serve.folder + "/data"))
    }

    @Test func aDamagedDatabaseStopsTheStartWithTheRestoreSteps() throws {
        let data = NSTemporaryDirectory() + "wishlist-damaged-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: data) }
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let garbage = Data(repeating: 0x5A, count: 8192)
        try garbage.write(to: URL(fileURLWithPath: data + "/wishlist.sqlite"))
        let (status, message) = try ServeProcess(arguments: ["--data-dir", data], environment: [:]).exit()
        #expect(status != 0)
        #expect(message.contains("The database \(data)/wishlist.sqlite is damaged"), "\(message)")
        #expect(message.contains("wishlist restore FOLDER --data-dir \(data)"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: data + "/wishlist.sqlite")) == garbage)
    }

    @Test func aFolderWhoseDatabaseIsGoneIsNotSeededAgain() throws {
        let data = NSTemporaryDirectory() + "wishlist-gone-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: data) }
        let database = data + "/wishlist.sqlite"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try WishlistStore(path: database).close()
        try FileManager.default.removeItem(atPath: database)
        let (status, message) = try ServeProcess(arguments: ["--data-dir", data], environment: [:]).exit()
        #expect(status != 0)
        #expect(message.contains("The database \(database) is missing") && message.contains("wishlist restore"), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: database))
    }

    @Test func theDataFolderAndItsFilesAreOnlyTheOwners() throws {
        let serve = try ServeProcess(arguments: [], environment: [:], seeded: false)
        _ = try serve.readyPort()
        let data = serve.folder + "/data"
        for (path, mode) in [(data, 0o700), (data + "/wishlist.sqlite", 0o600), (data + "/wishlist.lock", 0o600),
                             (data + "/images", 0o700)] {
            #expect(try Self.permissions(of: path) == mode, "\(path)")
        }
    }

    static func permissions(of path: String) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    }
}
