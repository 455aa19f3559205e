import CArchive
import FileArchive
import Foundation
import Testing

/// Zip files written and read back through libarchive, real files in a temporary folder.
@Suite struct FileArchiveTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("FileArchiveTests-\(UUID().uuidString)").path
    static let roomy = FileArchiveLimits(maxEntries: 100, maxEntryBytes: 1 << 30, maxTotalBytes: 1 << 30)

    init() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    private func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = folder + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func archive(_ entries: [(name: String, bytes: [UInt8])]) throws -> String {
        let path = folder + "/test.zip"
        let writer = try FileArchiveWriter(path: path)
        for (index, entry) in entries.enumerated() {
            try writer.add(name: entry.name, fileAt: try file("source-\(index)", entry.bytes))
        }
        try writer.finish()
        return path
    }

    /// Every entry's name and content, read through `read`.
    private func contents(of path: String, limits: FileArchiveLimits = roomy) throws -> [String: [UInt8]] {
        let reader = try FileArchiveReader(path: path, limits: limits)
        var contents: [String: [UInt8]] = [:]
        while let name = try reader.nextEntry() {
            var bytes: [UInt8] = []
            try reader.read { bytes.append(contentsOf: $0) }
            contents[name] = bytes
        }
        return contents
    }

    private func problem(_ body: () throws -> Void) -> String? {
        do { try body(); return nil } catch { return "\(error)" }
    }

    @Test func entriesComeBackByteIdentical() throws {
        let large = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        let path = try archive([("doc.json", Array("{\"a\":1}".utf8)), ("photos/big.bin", large), ("empty", [])])

        #expect(try contents(of: path) == ["doc.json": Array("{\"a\":1}".utf8), "photos/big.bin": large, "empty": []])
        let reader = try FileArchiveReader(path: path, limits: Self.roomy)
        _ = try reader.nextEntry()
        try reader.extract(to: folder + "/extracted")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/extracted")) == Data("{\"a\":1}".utf8))
    }

    @Test func unfinishedWriterLeavesNoFile() throws {
        let path = folder + "/never.zip"
        do {
            let writer = try FileArchiveWriter(path: path)
            try writer.add(name: "a", fileAt: try file("a", [1, 2, 3]))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["a"])
    }

    @Test(arguments: ["../x", "photos/../../x", "/etc/passwd"])
    func namesLeavingTheFolderAreRefused(_ name: String) throws {
        let path = try archive([("fine", [1]), (name, [2])])
        let message = try #require(problem { _ = try contents(of: path) })
        #expect(message.hasPrefix("\(name): "))
    }

    @Test func symbolicLinksAreRefused() throws {
        let path = folder + "/link.zip"
        let archive = try #require(archive_write_new())
        archive_write_set_format_zip(archive)
        archive_write_open_filename(archive, path)
        let entry = archive_entry_new()
        archive_entry_set_pathname(entry, "photos/a.jpg")
        archive_entry_set_filetype(entry, carchive_symbolic_link)
        archive_entry_set_symlink(entry, "/etc/passwd")
        #expect(archive_write_header(archive, entry) == ARCHIVE_OK)
        archive_entry_free(entry)
        archive_write_close(archive)
        archive_write_free(archive)

        #expect(problem { _ = try contents(of: path) } == "photos/a.jpg: is a symbolic link; only files are allowed")
    }

    @Test func truncatedArchiveIsRefused() throws {
        let path = try archive([("a", Array(repeating: 7, count: 10_000)), ("b", Array(repeating: 8, count: 10_000))])
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try data.prefix(data.count - 30).write(to: URL(fileURLWithPath: path))
        #expect(problem { _ = try contents(of: path) } != nil)
    }

    @Test func limitsStopReadingAtTheFirstEntryPastThem() throws {
        let path = try archive([("a", Array(repeating: 1, count: 1000)), ("b", Array(repeating: 2, count: 1000)), ("c", [3])])
        let tooMany = FileArchiveLimits(maxEntries: 2, maxEntryBytes: 1 << 20, maxTotalBytes: 1 << 20)
        #expect(problem { _ = try contents(of: path, limits: tooMany) } == "c: the archive has more than 2 entries")
        let tooLarge = FileArchiveLimits(maxEntries: 10, maxEntryBytes: 999, maxTotalBytes: 1 << 20)
        #expect(problem { _ = try contents(of: path, limits: tooLarge) } == "a: is 1000 bytes; the limit is 999")
        let tooMuch = FileArchiveLimits(maxEntries: 10, maxEntryBytes: 1000, maxTotalBytes: 1500)
        #expect(problem { _ = try contents(of: path, limits: tooMuch) }
                == "b: the archive's content is larger than the limit of 1500 bytes")
    }

    @Test func contentIsBoundedByTheArchivesOwnSize() throws {
        let path = try archive([("zeros", Array(repeating: 0, count: 1_000_000))])
        let size = try #require((try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value)
        let bounded = FileArchiveLimits(maxEntries: 10, maxEntryBytes: 1 << 30, maxTotalBytes: 1 << 30, maxExpansion: 100)
        #expect(problem { _ = try contents(of: path, limits: bounded) }
                == "zeros: the archive's content is larger than the limit of \(size * 100) bytes (100 times the archive's size)")
        #expect(try contents(of: path)["zeros"]?.count == 1_000_000)
    }
}
