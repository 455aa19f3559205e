import Foundation
import HTTPServer
import Persistence
import Testing
import WishlistCore

/// `wishlist export`, `import` and `restore` as processes on real data directories: photos travel
/// byte for byte, an import over trips needs --replace and can be undone; and `wishlist token`.
@Suite struct ArchiveCommandTests {
    let folder = NSTemporaryDirectory() + "wishlist-archive-" + UUID().uuidString

    init() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    /// A new data folder in `folder`, seeded as a first start leaves it.
    private func seeded(_ name: String) throws -> String {
        let path = folder + "/" + name
        try FileManager.default.copyItem(atPath: ServePasswordTests.seededFolder.get(), toPath: path)
        return path
    }

    struct Outcome {
        let status: Int32
        let output: String
        let error: String
    }

    /// Runs the `wishlist` executable to its end, stdin not a terminal, output through files.
    private func wishlist(_ arguments: String...) throws -> Outcome {
        let process = Process()
        process.executableURL = ServePasswordTests.executable
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin"]
        let outputPath = folder + "/stdout-\(UUID().uuidString)"
        let errorPath = folder + "/stderr-\(UUID().uuidString)"
        for path in [outputPath, errorPath] { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle(forWritingAtPath: outputPath)
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        try process.run()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus,
                       output: try String(contentsOfFile: outputPath, encoding: .utf8),
                       error: try String(contentsOfFile: errorPath, encoding: .utf8))
    }

    /// Each trip's name with its original photo's bytes (nil: none); checks every thumbnail is there.
    private func photos(in dataDirectory: String) throws -> [String: Data?] {
        let store = try WishlistStore(path: dataDirectory + "/wishlist.sqlite")
        defer { store.close() }
        let rows = try store.database.read { try $0.fetchAll("""
            SELECT Trip.id, Trip.name, TripImage.file_name FROM Trip LEFT JOIN TripImage ON TripImage.id = Trip.image_id
            """) }
        var photos: [String: Data?] = [:]
        for row in rows {
            guard let file: String = row["file_name"] else { photos[row["name"]] = Data?.none; continue }
            #expect(try store.thumbnail(tripID: row["id"]) != nil)
            photos[row["name"]] = try Data(contentsOf: store.photos.url(for: file))
        }
        return photos
    }

    @Test func photosTravelInTheArchiveAndAnImportOverTripsNeedsReplaceAndCanBeUndone() throws {
        let source = try seeded("source"), target = folder + "/target", archive = folder + "/wishlist.zip"
        let export = try wishlist("export", archive, "--data-dir", source)
        #expect(export.status == 0, "\(export.error)")
        let original = try photos(in: source)
        #expect(original.values.compactMap { $0 }.count == 12)

        // Into a new data directory: no question asked.
        let first = try wishlist("import", archive, "--data-dir", target)
        #expect(first.status == 0, "\(first.error)")
        #expect(first.output.contains("Photos: 12 from the archive, 0 kept from the current trips, 0 no longer shown"))
        #expect(try photos(in: target) == original)

        // Over trips without --replace: refused, nothing changed, no backup taken.
        let refused = try wishlist("import", archive, "--data-dir", target)
        #expect(refused.status == 64)
        #expect(refused.error.contains("has 12 trips") && refused.error.contains("Nothing was changed")
                && refused.error.contains("--replace"))
        #expect(!FileManager.default.fileExists(atPath: target + "/backups"))
        #expect(try photos(in: target) == original)

        let replaced = try wishlist("import", archive, "--data-dir", target, "--replace")
        #expect(replaced.status == 0, "\(replaced.error)")
        #expect(try photos(in: target) == original)

        // A script's document replaces them; the backup it printed brings them back.
        let document = folder + "/one.json"
        try Data(#"{"formatVersion": 1, "trips": [{"name": "Only", "collection": "fallGetaways"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: document))
        let scripted = try wishlist("import", document, "--data-dir", target, "--replace")
        #expect(scripted.status == 0, "\(scripted.error)")
        #expect(scripted.output.contains("12 no longer shown by any trip and deleted (they are in the backup)"))
        #expect(try photos(in: target) == ["Only": Data?.none])
        let restoreCommand = try #require(scripted.output.firstMatch(of: /To undo the import: wishlist restore (\S+) --data-dir/))
        let restored = try wishlist("restore", String(restoreCommand.1), "--data-dir", target)
        #expect(restored.status == 0, "\(restored.error)")
        #expect(try photos(in: target) == original)
    }

    @Test func exportsBackupsAndPhotosAreOnlyTheOwners() throws {
        let data = try seeded("data"), archive = folder + "/private.zip", backup = folder + "/backup"
        #expect(try wishlist("export", archive, "--data-dir", data).status == 0)
        #expect(try wishlist("backup", backup, "--data-dir", data).status == 0)
        let photo = try #require(try FileManager.default.contentsOfDirectory(atPath: data + "/images").first)
        for (path, mode) in [(archive, 0o600), (backup, 0o700), (backup + "/wishlist.sqlite", 0o600),
                             (backup + "/images", 0o700), (data + "/images/" + photo, 0o600)] {
            #expect(try DataFolderTests.permissions(of: path) == mode, "\(path)")
        }
    }

    /// `wishlist token`: the secret printed once opens the API, and revoking shuts it.
    @Test func tokensAreCreatedListedAndRevokedFromTheCommandLine() throws {
        let data = try seeded("tokens")
        let created = try wishlist("token", "create", "backup-script", "--data-dir", data)
        #expect(created.status == 0, "\(created.error)")
        #expect(created.output.contains("token:backup-script"))
        let secret = try #require(created.output.split(separator: "\n").last.map(String.init))
        let store = try WishlistStore(path: data + "/wishlist.sqlite")
        #expect(try store.apiToken(secretHash: BearerToken.hash(secret))?.name == "backup-script")
        store.close()

        #expect(try wishlist("token", "list", "--data-dir", data).output.hasPrefix("backup-script\tsince "))
        let twice = try wishlist("token", "create", "backup-script", "--data-dir", data)
        #expect(twice.status == 1 && twice.error.contains("There is already a token called “backup-script”"))
        #expect(try wishlist("token", "revoke", "backup-script", "--data-dir", data).status == 0)
        #expect(try wishlist("token", "list", "--data-dir", data).output == "No API tokens.\n")
        #expect(try wishlist("token", "revoke", "backup-script", "--data-dir", data).status == 1)
        #expect(try wishlist("token", "make", "x", "--data-dir", data).status == 64)
    }

    /// `wishlist feed`: the address printed once is where `serve --port` answers; rotate and
    /// revoke shut it; a misplaced `--trip` or an unknown trip is refused.
    @Test func feedsAreCreatedListedRotatedAndRevokedFromTheCommandLine() throws {
        let data = try seeded("feeds")
        let created = try wishlist("feed", "create", "phone", "--trip", "1", "--port", "8123", "--data-dir", data)
        #expect(created.status == 0, "\(created.error)")
        let address = try #require(created.output.split(separator: "\n").last.map(String.init))
        let prefix = "http://127.0.0.1:8123/calendar/"
        #expect(address.hasPrefix(prefix) && address.hasSuffix(".ics"))
        let store = try WishlistStore(path: data + "/wishlist.sqlite")
        let secret = String(address.dropFirst(prefix.count).dropLast(4))
        #expect(try store.fetch(WishlistStore.calendarFeed(secretHash: BearerToken.hash(secret)))?.tripID == 1)

        #expect(try wishlist("feed", "list", "--data-dir", data).output.hasPrefix("phone\ttrip 1\tsince "))
        let rotated = try wishlist("feed", "rotate", "phone", "--data-dir", data)
        let newSecret = try #require(rotated.output.split(separator: "\n").last.map { String($0.split(separator: "/").last!.dropLast(4)) })
        #expect(try store.fetch(WishlistStore.calendarFeed(secretHash: BearerToken.hash(secret))) == nil)
        #expect(try store.fetch(WishlistStore.calendarFeed(secretHash: BearerToken.hash(newSecret)))?.name == "phone")
        store.close()
        #expect(try wishlist("feed", "revoke", "phone", "--data-dir", data).status == 0)
        #expect(try wishlist("feed", "list", "--data-dir", data).output == "No calendar feeds.\n")
        #expect(try wishlist("feed", "revoke", "phone", "--data-dir", data).status == 1)
        let missing = try wishlist("feed", "create", "gone", "--trip", "999999", "--data-dir", data)
        #expect(missing.status == 1 && missing.error.contains("999999"))
        #expect(try wishlist("feed", "list", "--trip", "1", "--data-dir", data).status == 64)
    }

    @Test func aMaliciousArchiveChangesNothing() throws {
        let data = try seeded("data"), archive = folder + "/wishlist.zip"
        #expect(try wishlist("export", archive, "--data-dir", data).status == 0)
        let before = try photos(in: data)
        // The same length keeps the zip valid: a photo's entry now points outside the folder.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: archive))
        let name = Data("photos/".utf8), evil = Data("../../x".utf8)
        while let range = bytes.range(of: name) { bytes.replaceSubrange(range, with: evil) }
        try bytes.write(to: URL(fileURLWithPath: archive))

        let outcome = try wishlist("import", archive, "--data-dir", data, "--replace")
        #expect(outcome.status == 1)
        #expect(outcome.error.contains("../../x") && outcome.error.contains("names a parent folder"), "\(outcome.error)")
        #expect(try photos(in: data) == before)
        #expect(!FileManager.default.fileExists(atPath: data + "/backups"), "checked before the backup")
    }
}
