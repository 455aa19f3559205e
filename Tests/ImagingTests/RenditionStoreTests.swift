import Foundation
import Testing
@testable import Imaging

@Suite struct RenditionStoreTests {
    let fixtures: Fixtures
    let renditions: RenditionStore
    let original = String(repeating: "ab", count: 32) + ".heic"

    init() throws {
        fixtures = try Fixtures()
        renditions = try RenditionStore(directory: fixtures.directory.appendingPathComponent("renditions"))
    }

    private var entries: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: renditions.directory.path).sorted()) ?? []
    }

    private func picture(_ bytes: [UInt8]) -> EncodedImage {
        EncodedImage(bytes: bytes, format: .jpeg, width: 1, height: 1)
    }

    @Test func renditionIsNamedAfterItsOriginalAndSide() throws {
        try renditions.store(picture([1, 2]), of: original, maxSide: 2048)
        #expect(entries == [String(repeating: "ab", count: 32) + "-2048.jpg"], "and no temporary file left behind")
        #expect(try Data(contentsOf: renditions.url(of: original, maxSide: 2048, format: .jpeg)) == Data([1, 2]))
        #expect(throws: ImagingError.invalidStoredName("../escape.jpg")) {
            try renditions.url(of: "../escape.jpg", maxSide: 2048, format: .jpeg)
        }
    }

    @Test func sweepKeepsWantedRenditionsAndLeavesOtherFilesAlone() throws {
        try renditions.store(picture([1]), of: original, maxSide: 2048)
        try renditions.store(picture([2]), of: original, maxSide: 1024)
        let orphan = String(repeating: "cd", count: 32) + ".jpg"
        try renditions.store(picture([3]), of: orphan, maxSide: 2048)
        let leftover = ImageStore.temporaryPrefix + "crashed"
        try Data([4]).write(to: renditions.directory.appendingPathComponent(leftover))
        try Data([5]).write(to: renditions.directory.appendingPathComponent("notes-1.txt"))
        let wanted = try Set([2048, 1024].map { try RenditionStore.name(of: original, maxSide: $0, format: .jpeg) })

        let removed = try renditions.sweep(keeping: wanted)

        #expect(removed == [leftover, String(repeating: "cd", count: 32) + "-2048.jpg"].sorted())
        #expect(Set(entries) == wanted.union(["notes-1.txt"]))
    }

    @Test func removeDeletesAndToleratesRepeats() throws {
        try renditions.store(picture([1]), of: original, maxSide: 1024)
        try renditions.remove(renditionOf: original, maxSide: 1024, format: .jpeg)
        try renditions.remove(renditionOf: original, maxSide: 1024, format: .jpeg)
        #expect(entries.isEmpty)
    }
}
