import Foundation
import Persistence
import WishlistCore

/// One input: the bytes of an archive file, imported into a real store (on /dev/shm, so the
/// fsyncs cost nothing). An import is all or nothing: a rejected file must leave the wishlist
/// as it was, an accepted one must leave exactly the trips it holds.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArchive(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let file = fixture.directory.appendingPathComponent("input.json")
    do {
        try Data(bytes: data, count: size).write(to: file)
    } catch {
        fatalError("cannot write the input file: \(error)")
    }
    let before = fixture.tripCount()
    do {
        let summary = try WishlistArchive(store: fixture.store).import(from: file)
        precondition(fixture.tripCount() == summary.trips, "the import reported \(summary.trips) trips but stored \(fixture.tripCount())")
    } catch let error as ArchiveError {
        precondition(!error.description.isEmpty, "an archive error without a message")
        precondition(fixture.tripCount() == before, "a rejected archive changed the wishlist")
    } catch {
        // Anything but an ArchiveError means bad input got past validation into the database.
        fatalError("import failed with an unexpected error: \(error)")
    }
    return 0
}

private let fixture = ArchiveFixture()

private final class ArchiveFixture: Sendable {
    let directory: URL
    let store: WishlistStore

    init() {
        let parent = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        directory = URL(fileURLWithPath: parent).appendingPathComponent("wishlist-fuzz-archive-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            store = try WishlistStore(path: directory.appendingPathComponent("wishlist.sqlite").path)
        } catch {
            fatalError("cannot open the fuzzing store: \(error)")
        }
    }

    func tripCount() -> Int {
        do {
            return try store.database.read { try $0.fetchScalar(Int.self, "SELECT count(*) FROM Trip") ?? 0 }
        } catch {
            fatalError("cannot count trips: \(error)")
        }
    }
}
