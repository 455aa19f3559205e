import CVips
import Foundation
import Persistence
import Testing
import TestSupport
@testable import Imaging
@testable import WishlistCore

/// A trip's gallery through the store and archives: real files, libvips and SQLite.
@Suite struct GalleryTests {
    let clock = ManualClock()
    let test: TestStore
    let fixtures: PhotoFixtures
    let tripID: Trip.ID

    init() throws {
        test = try TestStore(clock: clock)
        fixtures = try PhotoFixtures()
        tripID = try test.store.addTrip(TripDraft(name: "Lisbon Trams", collection: .springEscapes))
    }

    private var store: WishlistStore { test.store }

    private func photos(_ count: Int, from seed: Int = 1) throws -> [String] {
        try (seed..<seed + count).map { try fixtures.write(fixtures.photo(width: 600, height: 400, seed: $0), as: "p\($0).jpg") }
    }

    private func gallery() throws -> [GalleryPhoto] {
        try store.fetch(.gallery(tripID: tripID))
    }

    /// The trip row's cover is the gallery's first photo.
    private func coverVersion() throws -> String? {
        try store.trip(id: tripID)?.photo?.version
    }

    @Test func manyFilesAreAddedEachWithItsOwnOutcomeAndTheFirstIsTheCover() throws {
        let good = try photos(2)
        let broken = try fixtures.write(Array(try fixtures.bytes(good[0]).prefix(900)), as: "broken.jpg")
        let empty = try fixtures.write([], as: "empty.jpg")
        let outcomes = try store.addPhotos(tripID: tripID, at: [good[0], broken, good[1], empty, good[0]])
        guard case .stored(let first) = outcomes[0], case .stored(let second) = outcomes[2],
              case .refused(let damaged) = outcomes[1], case .refused(let nothing) = outcomes[3] else {
            Issue.record("outcomes: \(outcomes)")
            return
        }
        #expect(damaged.contains("damaged") || damaged.contains("incomplete"), "\(damaged)")
        #expect(nothing.contains("empty"), "\(nothing)")
        #expect(outcomes[4] == .alreadyThere(first), "the same picture is stored once, and says so")
        #expect(try gallery().map(\.id) == [first, second])
        #expect(try coverVersion() == gallery()[0].summary.version)
        #expect(try store.fetch(WishlistQuery<WishlistContents>.contents).photos == 12 + 2, "the sample trips' and these")
        #expect(throws: WishlistError.notFound(entity: "trip", id: 999)) { try store.addPhotos(tripID: 999, at: good) }
    }

    @Test func theDateTakenComesFromTheCamera() throws {
        let dated = try fixtures.save(fixtures.withDateTaken(fixtures.markedImage(width: 300, height: 200), "2024:07:14 09:30:00"),
                                      as: "dated.jpg")
        _ = try store.addPhotos(tripID: tripID, at: [dated])
        #expect(try gallery().first?.dateTaken == "2024-07-14T09:30:00")
    }

    @Test func movingCaptioningAndMakingTheCover() throws {
        _ = try store.addPhotos(tripID: tripID, at: photos(3))
        let ids = try gallery().map(\.id)
        try store.movePhoto(id: ids[2], toIndex: 0)
        #expect(try gallery().map(\.id) == [ids[2], ids[0], ids[1]])
        #expect(try coverVersion() == gallery()[0].summary.version, "the first is the cover on every list")
        try store.movePhoto(id: ids[2], toIndex: 99)
        #expect(try gallery().map(\.id) == [ids[0], ids[1], ids[2]])
        try store.setCaption(photoID: ids[1], "  Tram 28 at dawn ")
        #expect(try gallery()[1].caption == "Tram 28 at dawn")
        #expect(throws: ValidationError.self) { try store.setCaption(photoID: ids[1], String(repeating: "x", count: 300)) }
        #expect(throws: WishlistError.notFound(entity: "photo", id: 999)) { try store.movePhoto(id: 999, toIndex: 0) }
    }

    @Test func deletingTheCoverMakesTheNextTheCoverAndUndoPutsItBackWhole() throws {
        _ = try store.addPhotos(tripID: tripID, at: photos(3))
        let before = try gallery()
        try store.setCaption(photoID: before[0].id, "Alfama")
        let deletion = try store.deletePhoto(id: before[0].id)
        #expect(try gallery().map(\.id) == [before[1].id, before[2].id])
        #expect(try coverVersion() == before[1].summary.version)
        let file = try #require(try store.fetch(.photoFile(photoID: before[1].id)))
        #expect(store.photos.contains(file.fileName))

        try store.undoDeletion(id: deletion.id)
        let after = try gallery()
        #expect(after.map(\.id) == before.map(\.id) && after[0].caption == "Alfama")
        #expect(try coverVersion() == before[0].summary.version)
    }

    @Test func undoingATripsDeletionBringsBackItsWholeGallery() throws {
        _ = try store.addPhotos(tripID: tripID, at: photos(3))
        let before = try gallery()
        try store.setCaption(photoID: before[2].id, "Belém")
        let names = try before.map { try #require(try store.fetch(.photoFile(photoID: $0.id))).fileName }
        let deletion = try store.deleteTrip(id: tripID)
        #expect(names.allSatisfy(store.photos.contains), "kept while the delete can be undone")
        try store.undoDeletion(id: deletion.id)
        #expect(try gallery() == before.map { $0.id == before[2].id ? try #require(try store.fetch(.galleryPhoto(id: $0.id))) : $0 })
        #expect(try gallery()[2].caption == "Belém")

        try store.deleteTrip(id: tripID)
        clock.advance(by: .seconds(WishlistStore.keptFor + 1))
        try store.forgetExpiredDeletions()
        #expect(!names.contains(where: store.photos.contains), "let go of with the deletion")
        #expect(try store.database.read { try $0.fetchScalar(Int.self, "SELECT count(*) FROM TripImage WHERE id NOT IN (SELECT image_id FROM Photo)") } == 0)
    }

    /// What follows trips (a sync tool, a device keeping pages offline) sees a photo added,
    /// captioned or deleted as a change of its trip, whether or not it is the cover.
    @Test func everyPhotoChangeNamesItsTrip() throws {
        _ = try store.addPhotos(tripID: tripID, at: photos(2))
        let second = try gallery()[1].id
        for change in [{ try store.setCaption(photoID: second, "Tram 28") }, { try store.deletePhoto(id: second) },
                       { _ = try store.addPhotos(tripID: tripID, at: photos(1, from: 9)) }] as [() throws -> Void] {
            let token = try store.database.latestHistoryToken()
            try change()
            #expect(try store.tripPageChanges(after: HistoryCursor(token: token)).trips == [tripID])
        }
        #expect(try store.database.read { try $0.fetchScalar(Int.self, "SELECT photo_count FROM Trip WHERE id = ?", [tripID]) } == 2)
    }

    @Test func anArchiveCarriesEveryPhotoCaptionOrderAndCoverIntoAnEmptyWishlist() throws {
        _ = try store.addPhotos(tripID: tripID, at: photos(3) + [fixtures.save(fixtures.markedImage(width: 640, height: 400), as: "porto.heic")])
        var ids = try gallery().map(\.id)
        try store.movePhoto(id: ids[3], toIndex: 0)
        ids = try gallery().map(\.id)
        try store.setCaption(photoID: ids[1], "Tram 28")
        let expected = try galleryContents(of: store, tripID: tripID)

        let archive = URL(fileURLWithPath: test.directory.path + "/wishlist.zip")
        try WishlistArchive(store: store).export(to: archive)
        let empty = try TestStore()
        try empty.deleteAllTrips()
        let summary = try WishlistArchive(store: empty.store).import(from: archive)
        #expect(summary.photosFromArchive == 12 + 4)
        #expect(try galleryContents(of: empty.store, tripID: tripID) == expected, "same id, photos, captions, order")
        #expect(try empty.store.trip(id: tripID)?.photo?.version == store.trip(id: tripID)?.photo?.version, "same cover")

        // A plain document names photos the library has: importing it back changes nothing.
        let document = URL(fileURLWithPath: test.directory.path + "/wishlist.json")
        try WishlistArchive(store: store).export(to: document)
        _ = try WishlistArchive(store: store).import(from: document)
        #expect(try galleryContents(of: store, tripID: tripID) == expected)
    }

    @Test func aBackupRestoresEveryGalleryWhole() throws {
        _ = try store.addPhotos(tripID: tripID, at: photos(3))
        try store.setCaption(photoID: gallery()[2].id, "Elevador")
        let expected = try galleryContents(of: store, tripID: tripID)
        let backup = try Backup.beforeImport(of: store)
        #expect(backup.photoFiles == 12 + 3, "the sample trips' and the gallery's originals")
        try store.deletePhoto(id: gallery()[1].id)
        try store.deleteTrip(id: tripID)
        clock.advance(by: .seconds(WishlistStore.keptFor + 1))
        _ = try store.sweepPhotos()  // the deleted photos' files are gone from the library

        try Backup.restore(from: backup.folder, toDatabaseAt: test.directory.databasePath)
        try test.reopen()
        #expect(try galleryContents(of: test.store, tripID: tripID) == expected)
    }

    /// Each photo of the trip, in order: its caption, date and the bytes of its original.
    private func galleryContents(of store: WishlistStore, tripID: Trip.ID) throws -> [String] {
        try store.fetch(.gallery(tripID: tripID)).map { photo in
            let file = try #require(try store.fetch(.photoFile(photoID: photo.id)))
            return "\(photo.caption)|\(photo.dateTaken ?? "-")|\(try fixtures.sha256(of: store.photos.url(for: file.fileName).path))"
        }
    }

    @Test func aTripsPhotoStoredBeforeGalleriesBecomesTheFirstOfItsGallery() throws {
        let directory = try TemporaryDirectory()
        let old = try Database(path: directory.databasePath, migrations: Array(Schema.migrations.prefix(10)))
        try old.write(author: "test") { connection in
            try connection.execute("""
                INSERT INTO TripImage (id, file_name, media_type, byte_count, width, height) VALUES (5, 'a.jpg', 'image/jpeg', 10, 60, 40);
                INSERT INTO Trip (id, name, name_folded, collection, creation_date, thumbnail, thumbnail_format, thumbnail_width,
                                  thumbnail_height, photo_version, photo_width, photo_height, image_id)
                VALUES (1, 'Old', 'old', 'fallGetaways', 0, x'00', 'webp', 6, 4, 'v1', 60, 40, 5);
                INSERT INTO Trip (id, name, name_folded, collection, creation_date) VALUES (2, 'Bare', 'bare', 'fallGetaways', 0);
                """)
        }
        old.close()
        let migrated = try WishlistStore(path: directory.databasePath)
        let photos = try migrated.fetch(.gallery(tripID: 1))
        let cover = try migrated.trip(id: 1)?.photo
        #expect(photos.count == 1 && photos[0].summary == cover)
        #expect(try migrated.fetch(.gallery(tripID: 2)).isEmpty)
        #expect(try migrated.fetch(.photoFile(photoID: photos[0].id))?.fileName == "a.jpg")
        // Migration 13 moves the thumbnail onto the image's row: the trip and its photo still show it.
        let thumbnail = try #require(try migrated.thumbnail(tripID: 1))
        #expect(thumbnail.bytes == [0] && thumbnail.format == .webp && thumbnail.version == "v1")
        #expect(try migrated.fetch(.thumbnail(photoID: photos[0].id))?.bytes == [0])
    }
}

extension PhotoFixtures {
    func withDateTaken(_ image: VipsImageRef, _ date: String) -> VipsImageRef {
        vips_image_set_string(image.pointer, "exif-ifd2-DateTimeOriginal", date)
        return image
    }
}
