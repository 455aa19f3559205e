import Foundation
import Testing
@testable import Imaging

@Suite struct ImageStoreTests {
    let fixtures: Fixtures
    let store: ImageStore

    init() throws {
        fixtures = try Fixtures()
        store = try ImageStore(directory: fixtures.directory.appendingPathComponent("images"))
    }

    private var storedEntries: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: store.directory.path).sorted()) ?? []
    }

    @Test func nameIsTheSHA256OfTheContent() throws {
        let stored = try store.store(bytes: Array("abc".utf8), format: .png)
        // The SHA-256 test vector for "abc" (FIPS 180-2).
        #expect(stored.name == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad.png")
        #expect(stored.byteCount == 3)
        #expect(try Data(contentsOf: store.url(for: stored.name)) == Data("abc".utf8))
    }

    @Test func samePictureIsStoredOnceWhicheverWayItArrives() throws {
        let photo = try fixtures.photo(width: 800, height: 600)
        #expect(photo.count > 64 * 1024, "large enough to be copied in several chunks")
        let upload = try fixtures.write(photo, as: "upload.tmp")

        let first = try store.store(fileAt: upload, format: .jpeg)
        let second = try store.store(bytes: photo, format: .jpeg)
        #expect(first.isNew)
        #expect(!second.isNew)
        #expect(first.name == second.name)
        #expect(first.byteCount == photo.count)
        #expect(storedEntries == [first.name], "one file, and no temporary files left behind")
    }

    @Test func sweepRemovesUnreferencedAndTemporaryFilesOnly() throws {
        let kept = try store.store(bytes: [1, 2, 3], format: .jpeg)
        let orphan = try store.store(bytes: [4, 5, 6], format: .webp)
        let leftover = ImageStore.temporaryPrefix + "crashed"
        try Data([7]).write(to: store.directory.appendingPathComponent(leftover))
        try Data([8]).write(to: store.directory.appendingPathComponent("notes.txt"))

        let removed = try store.sweep(keeping: [kept.name])
        #expect(removed == [leftover, orphan.name].sorted())
        #expect(storedEntries == [kept.name, "notes.txt"].sorted())
    }

    @Test func missingListsReferencesWithoutFiles() throws {
        let present = try store.store(bytes: [9], format: .gif)
        let absent = String(repeating: "a", count: 64) + ".jpg"
        #expect(store.missing(from: [present.name, absent, "../escape.jpg"]) == ["../escape.jpg", absent])
    }

    @Test func removeDeletesAndToleratesRepeats() throws {
        let stored = try store.store(bytes: [10, 11], format: .png)
        try store.remove(name: stored.name)
        try store.remove(name: stored.name)
        #expect(storedEntries.isEmpty)
    }

    @Test(arguments: [
        "../etc/passwd",
        "/etc/passwd",
        String(repeating: "a", count: 64),
        String(repeating: "a", count: 63) + ".jpg",
        String(repeating: "A", count: 64) + ".jpg",
        String(repeating: "g", count: 64) + ".jpg",
        String(repeating: "a", count: 64) + ".exe",
        String(repeating: "a", count: 64) + ".jpg.png",
        ImageStore.temporaryPrefix + "x",
    ])
    func namesThatAreNotContentNamesAreRefused(name: String) {
        #expect(throws: ImagingError.invalidStoredName(name)) { try store.url(for: name) }
        #expect(throws: ImagingError.invalidStoredName(name)) { try store.remove(name: name) }
    }

    @Test func validNameResolvesInsideTheDirectory() throws {
        let name = String(repeating: "0123456789abcdef", count: 4) + ".heic"
        #expect(try store.url(for: name) == store.directory.appendingPathComponent(name))
    }
}
