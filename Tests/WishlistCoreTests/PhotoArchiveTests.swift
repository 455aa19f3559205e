import FileArchive
import Foundation
import Imaging
import Persistence
import TestSupport
import Testing
@testable import WishlistCore

/// Archives with photos, backups and restores: real zip files, real libvips images, real SQLite.
@Suite struct PhotoArchiveTests {
    let fixtures: PhotoFixtures

    init() throws {
        fixtures = try PhotoFixtures()
    }

    /// A wishlist whose trips show the sample photos plus a JPEG and a HEIC (which has a rendition).
    private func wishlistWithPhotos(clock: ManualClock? = nil) throws -> TestStore {
        let test = try TestStore(clock: clock)
        let jpeg = try fixtures.write(fixtures.photo(width: 900, height: 600), as: "lisbon.jpg")
        try test.store.addTrip(TripDraft(name: "Lisbon Trams", collection: .springEscapes), photoAt: jpeg)
        let heic = try fixtures.save(fixtures.markedImage(width: 640, height: 400), as: "porto.heic")
        try test.store.addTrip(TripDraft(name: "Porto", collection: .summerVibes), photoAt: heic)
        return test
    }

    /// Each trip's name with the content of its original photo (nil: no photo), and whether its
    /// thumbnail and the file the browser gets are there.
    private func photos(of test: TestStore) throws -> [String: [UInt8]?] {
        let rows = try test.store.database.read { try $0.fetchAll("""
            SELECT Trip.id, Trip.name, TripImage.file_name FROM Trip LEFT JOIN TripImage ON TripImage.id = Trip.image_id
            """) }
        var photos: [String: [UInt8]?] = [:]
        for row in rows {
            guard let file: String = row["file_name"] else { photos[row["name"]] = .some(nil); continue }
            let tripID: Int64 = row["id"]
            #expect(try test.store.thumbnail(tripID: tripID) != nil, "thumbnail of \(row["name"] as String)")
            let shown = try #require(try test.store.photoFile(tripID: tripID))
            #expect(test.store.photos.contains(shown.fileName), "file shown for \(row["name"] as String)")
            photos[row["name"]] = try fixtures.bytes(test.store.photos.url(for: file).path)
        }
        return photos
    }

    private func leftovers(in test: TestStore) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: test.directory.path).filter { $0.hasPrefix(".") }
    }

    @Test func anArchiveCarriesEveryPhotoIntoAnEmptyAndIntoTheSameWishlist() throws {
        let source = try wishlistWithPhotos()
        let expected = try photos(of: source)
        #expect(expected.values.compactMap { $0 }.count == 14)
        let archive = URL(fileURLWithPath: source.directory.path + "/wishlist.zip")
        try WishlistArchive(store: source.store).export(to: archive)

        let empty = try TestStore()
        try empty.deleteAllTrips()
        do {
            let staged = try WishlistArchive(store: empty.store).stage(archive)
            #expect(staged.preview.isPackage && staged.preview.trips == 14 && staged.preview.photos == 14)
            let summary = try WishlistArchive(store: empty.store).import(staged)
            #expect(summary.photosFromArchive == 14 && summary.photosRemoved == 0)
        }
        #expect(try photos(of: empty) == expected)
        _ = try empty.store.sweepPhotos()
        #expect(try photos(of: empty) == expected, "the startup sweep keeps every imported file")

        let again = try WishlistArchive(store: source.store).import(from: archive)
        #expect(again.photosFromArchive == 14 && again.photosRemoved == 0)
        #expect(try photos(of: source) == expected)
        #expect(try source.store.sweepPhotos().removedFiles.isEmpty)
        #expect(try leftovers(in: empty).isEmpty && leftovers(in: source).isEmpty, "no staging folder is left")
    }

    /// The user's report: export to JSON, import it back, and every photo was gone.
    @Test func reimportingAPlainDocumentKeepsEveryPhoto() throws {
        let test = try wishlistWithPhotos()
        let expected = try photos(of: test)
        let document = URL(fileURLWithPath: test.directory.path + "/x.json")
        try WishlistArchive(store: test.store).export(to: document)

        let summary = try WishlistArchive(store: test.store).import(from: document)
        #expect(summary.photosKept == 14 && summary.photosRemoved == 0)
        #expect(try photos(of: test) == expected)
        #expect(try test.store.sweepPhotos().removedFiles.isEmpty)
    }

    @Test func aDocumentWithoutPhotosKeepsThePhotosOfTripsWithTheSameNameAndCollection() throws {
        let test = try wishlistWithPhotos()
        let before = try photos(of: test)
        let document = URL(fileURLWithPath: test.directory.path + "/script.json")
        try Data("""
            {"formatVersion": 1, "trips": [
              {"name": "Lisbon Trams", "collection": "springEscapes", "activities": [{"name": "Ride tram 28"}]},
              {"name": "Porto", "collection": "winterRetreats"},
              {"name": "Lisbon Trams", "collection": "springEscapes"}
            ]}
            """.utf8).write(to: document)

        let summary = try WishlistArchive(store: test.store).import(from: document)
        // The first Lisbon matches; Porto moved collection and the second Lisbon has no twin.
        #expect(summary.photosKept == 1 && summary.photosRemoved == 13)
        let lisbon = try #require(try test.store.trips(in: .springEscapes).first { $0.activityCount == 1 })
        let file = try #require(try test.store.photoFile(tripID: lisbon.id))
        #expect(try fixtures.bytes(test.store.photos.url(for: file.fileName).path) == before["Lisbon Trams"]!)
        #expect(try test.count("SELECT count(*) FROM TripImage") == 1)
    }

    /// An archive written by hand with the given entries (file contents).
    private func handMadeArchive(_ entries: [(String, [UInt8])], in test: TestStore) throws -> URL {
        let url = URL(fileURLWithPath: test.directory.path + "/hand-made-\(UUID().uuidString).zip")
        let writer = try FileArchiveWriter(path: url.path)
        for (name, bytes) in entries {
            try writer.add(name: name, fileAt: try fixtures.write(bytes, as: UUID().uuidString))
        }
        try writer.finish()
        return url
    }

    @Test func aBadArchiveNamesItsFirstProblemAndChangesNothing() throws {
        let test = try wishlistWithPhotos()
        let before = try photos(of: test)
        let filesBefore = try fixtures.storedFiles(test.store)
        let photo = try fixtures.photo(width: 300, height: 200, seed: 7)
        let photoPath = try fixtures.write(photo, as: "new.jpg")
        let name = "\(try fixtures.sha256(of: photoPath)).jpg"
        let other = try fixtures.photo(width: 300, height: 200, seed: 8)
        func document(photo: String) -> [UInt8] {
            Array(#"{"formatVersion": 2, "trips": [{"name": "New", "collection": "fallGetaways", "photo": "\#(photo)"}]}"#.utf8)
        }
        let cases: [(entries: [(String, [UInt8])], problem: String)] = [
            ([("wishlist.json", document(photo: name)), ("../\(name)", photo)],
             "../\(name): names a parent folder (..); only names inside the archive are allowed"),
            ([("wishlist.json", document(photo: name)), ("/tmp/\(name)", photo)],
             "/tmp/\(name): has an absolute name; only names inside the archive are allowed"),
            ([("wishlist.json", document(photo: name)), ("photos/\(name)", other)],
             "photos/\(name): its content does not match its name (SHA-256 \(try fixtures.sha256(of: fixtures.write(other, as: "other.jpg")))): the archive is damaged or was altered"),
            ([("wishlist.json", document(photo: name))],
             "trips[0].photo: names photos/\(name), which is not in the archive"),
            ([("photos/\(name)", photo)], "the archive has no wishlist.json"),
            ([("wishlist.json", document(photo: name)), ("photos/\(name)", Array(photo.prefix(2000)))],
             "photos/\(name): its content does not match its name"),
        ]
        for (entries, problem) in cases {
            let url = try handMadeArchive(entries, in: test)
            #expect {
                try WishlistArchive(store: test.store).import(from: url)
            } throws: { error in
                (error as? ArchiveError)?.description.hasPrefix(problem) == true
            }
            #expect(try photos(of: test) == before)
            #expect(try fixtures.storedFiles(test.store) == filesBefore)
            #expect(try leftovers(in: test).filter { $0.hasPrefix(".import-") }.isEmpty)
        }
    }

    /// Bytes under the test's `.import-*` staging folders.
    private func stagedBytes(in test: TestStore) throws -> Int {
        var total = 0
        for folder in try leftovers(in: test) where folder.hasPrefix(".import-") {
            guard let files = FileManager.default.enumerator(atPath: test.directory.path + "/" + folder) else { continue }
            while files.nextObject() != nil {
                total += (files.fileAttributes?[.size] as? NSNumber)?.intValue ?? 0
            }
        }
        return total
    }

    @Test func aDocumentThatUnpacksToFarMoreThanItsArchiveIsRefusedUnread() throws {
        let test = try wishlistWithPhotos()
        let before = try photos(of: test)
        // 8 MB of JSON whitespace deflates to a few kilobytes: 1,000 times the archive's size.
        let padded = #"{"formatVersion": 2, "trips": ["# + String(repeating: " ", count: 8 << 20) + "]}"
        let url = try handMadeArchive([("wishlist.json", Array(padded.utf8))], in: test)
        #expect {
            try WishlistArchive(store: test.store).import(from: url)
        } throws: { error in
            (error as? ArchiveError)?.description.contains("the archive's content is larger than the limit") == true
        }
        #expect(try photos(of: test) == before)
        #expect(try leftovers(in: test).filter { $0.hasPrefix(".import-") }.isEmpty)
    }

    @Test func photoEntriesTheDocumentDoesNotNameAreNeverWritten() throws {
        let test = try wishlistWithPhotos()
        let photoPath = try fixtures.write(fixtures.photo(width: 300, height: 200, seed: 7), as: "named.jpg")
        let named = "\(try fixtures.sha256(of: photoPath)).jpg"
        // Zeros under a hash-shaped name: nothing names it, so it is never unpacked.
        let unnamed = "\(String(repeating: "0", count: 64)).jpg"
        let document = #"{"formatVersion": 2, "trips": [{"name": "New", "collection": "fallGetaways", "photo": "\#(named)"}]}"#
        let url = try handMadeArchive([("wishlist.json", Array(document.utf8)), ("photos/\(named)", try fixtures.bytes(photoPath)),
                                       ("photos/\(unnamed)", Array(repeating: 0, count: 32 << 20))], in: test)
        let staged = try WishlistArchive(store: test.store).stage(url)
        #expect(staged.preview.photos == 1)
        #expect(try stagedBytes(in: test) < 4 << 20)
        let summary = try WishlistArchive(store: test.store).import(staged)
        #expect(summary.photosFromArchive == 1)
    }

    /// An outside review's archive: every trip names the same photo. Each Photo row and each
    /// trip's cover held a copy of its thumbnail, so 0.19 MB grew the database 1,500 times.
    @Test func tripsNamingOnePhotoStoreItsThumbnailOnce() throws {
        let test = try TestStore()
        try test.deleteAllTrips()
        let photoPath = try fixtures.write(fixtures.photo(width: 640, height: 480, seed: 3), as: "shared.jpg")
        let name = "\(try fixtures.sha256(of: photoPath)).jpg"
        let trips = (0..<3_000).map { #"{"name": "T\#($0)", "collection": "fallGetaways", "photos": [{"file": "\#(name)"}]}"# }
        let document = #"{"formatVersion": 5, "trips": ["# + trips.joined(separator: ",") + "]}"
        let url = try handMadeArchive([("wishlist.json", Array(document.utf8)), ("photos/\(name)", try fixtures.bytes(photoPath))],
                                      in: test)
        let archiveBytes = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        let databaseBytes = { () throws -> Int in
            try test.store.database.read { try $0.fetchScalar(Int.self, "SELECT page_count * page_size FROM pragma_page_count, pragma_page_size") ?? 0 }
        }
        let before = try databaseBytes()

        try WishlistArchive(store: test.store).import(from: url)

        #expect(try test.count("SELECT count(*) FROM Photo") == 3_000)
        #expect(try test.count("SELECT count(*) FROM TripImage WHERE thumbnail IS NOT NULL") == 1)
        let thumbnail = try #require(try test.store.thumbnail(tripID: Int64(try test.count("SELECT max(id) FROM Trip"))))
        // The bound docs/EXPORT-FORMAT.md states: rows come from the document, at most 32 times the archive.
        let bound = Int(WishlistArchive.limits.maxExpansion) * archiveBytes
        #expect(thumbnail.bytes.count * 6_000 > bound, "a copy per photo and per cover would break the bound")
        let growth = try databaseBytes() - before
        #expect(growth < bound, "grew \(growth) bytes from an archive of \(archiveBytes)")
    }

    @Test func aTruncatedArchiveChangesNothing() throws {
        let test = try wishlistWithPhotos()
        let before = try photos(of: test)
        let archive = URL(fileURLWithPath: test.directory.path + "/wishlist.zip")
        try WishlistArchive(store: test.store).export(to: archive)
        let bytes = try Data(contentsOf: archive)
        try bytes.prefix(bytes.count / 2).write(to: archive)

        #expect(throws: ArchiveError.self) { try WishlistArchive(store: test.store).import(from: archive) }
        #expect(try photos(of: test) == before)
    }

    @Test func restoreBringsBackTheWishlistBeforeAnImportEvenWhileItIsOpen() throws {
        // The backup's folder is named by the store's clock.
        let test = try wishlistWithPhotos(clock: ManualClock(startingAt: Date(timeIntervalSince1970: 1_795_960_980)))
        let before = try photos(of: test)
        let backup = try Backup.beforeImport(of: test.store)
        #expect(backup.folder.path == test.directory.path + "/backups/import-20261129-140300")
        #expect(backup.photoFiles == 14)  // 12 seeded and 2 uploaded originals; renditions are remade, not backed up
        let document = URL(fileURLWithPath: test.directory.path + "/other.json")
        try Data(#"{"formatVersion": 1, "trips": [{"name": "Only", "collection": "fallGetaways"}]}"#.utf8).write(to: document)
        try WishlistArchive(store: test.store).import(from: document)
        _ = try test.store.sweepPhotos()
        #expect(try photos(of: test) == ["Only": [UInt8]?.none])

        // `test.store` stays open, as a running server's would.
        try Backup.restore(from: backup.folder, toDatabaseAt: test.directory.databasePath)
        #expect(try photos(of: test) == before)
        try test.reopen()
        #expect(try photos(of: test) == before)
        #expect(try test.store.search("porto").trips.map(\.name) == ["Porto"])
    }

    /// Backups before imports link the photos (they never change) instead of copying them, and
    /// only the newest `keptImportBackups` stay.
    @Test func importBackupsLinkTheirPhotosAndOnlyTheNewestStay() throws {
        let test = try wishlistWithPhotos()
        var folders: [URL] = []
        for _ in 0..<(Backup.keptImportBackups + 2) {
            folders.append(try Backup.beforeImport(of: test.store).folder)
        }
        let kept = try FileManager.default.contentsOfDirectory(atPath: test.directory.path + "/backups").sorted()
        #expect(kept.count == Backup.keptImportBackups)
        #expect(Set(kept) == Set(folders.suffix(Backup.keptImportBackups).map(\.lastPathComponent)))
        let newest = try #require(folders.last)
        let photo = try #require(try FileManager.default.contentsOfDirectory(atPath: newest.path + "/images").first)
        let live = try FileManager.default.attributesOfItem(atPath: test.store.photos.url(for: photo).path)
        let backedUp = try FileManager.default.attributesOfItem(atPath: newest.path + "/images/" + photo)
        #expect(live[.systemFileNumber] as? NSNumber == backedUp[.systemFileNumber] as? NSNumber, "one file, two names")
    }

    @Test func startingSweepsEveryTemporaryEntryAndNothingElse() throws {
        let test = try wishlistWithPhotos()
        let data = test.directory.path
        let planted = [".import-1/photos/x.jpg", ".export-2/wishlist.json", ".uploads/3", ".downloads/4.zip", "images/.api-upload-5"]
        for path in planted {
            try FileManager.default.createDirectory(atPath: data + "/" + (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data([1, 2, 3]).write(to: URL(fileURLWithPath: data + "/" + path))
        }
        let before = try photos(of: test)
        let swept = DataFolder.sweepTemporaries(besideDatabaseAt: test.store.database.path)
        #expect(Set(swept) == [".import-1", ".export-2", ".uploads", ".downloads", ".api-upload-5"])
        #expect(try leftovers(in: test).filter { !$0.hasPrefix(".wishlist") && !$0.hasPrefix("wishlist") }.isEmpty)
        #expect(try photos(of: test) == before)
    }

    /// A process sharing the data folder (`wishlist import` beside a starting server) keeps its
    /// staging folder; one of a process that has ended is swept.
    @Test func startingLeavesTheStagingOfAProcessStillRunning() throws {
        let test = try TestStore()
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let running = ".import-\(getpid())-staging", gone = ".export-\(ended.processIdentifier)-staging"
        for name in [running, gone] {
            try FileManager.default.createDirectory(atPath: test.directory.path + "/" + name, withIntermediateDirectories: true)
        }
        #expect(DataFolder.sweepTemporaries(besideDatabaseAt: test.directory.databasePath) == [gone])
        #expect(FileManager.default.fileExists(atPath: test.directory.path + "/" + running))
    }

    @Test func restoreRefusesAFolderThatIsNotABackup() throws {
        let test = try TestStore()
        let folder = URL(fileURLWithPath: test.directory.path + "/not-a-backup")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(throws: BackupError.self) { try Backup.restore(from: folder, toDatabaseAt: test.directory.databasePath) }
    }
}
