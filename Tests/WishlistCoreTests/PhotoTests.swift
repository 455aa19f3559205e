import CVips
import Foundation
import Persistence
import Testing
import TestSupport
@testable import Imaging
@testable import WishlistCore

/// Photos through the store: real files, real libvips, real SQLite. Fixtures are drawn with
/// libvips at test time.
@Suite struct PhotoTests {
    let clock = ManualClock()
    let test: TestStore
    let fixtures: PhotoFixtures

    init() throws {
        test = try TestStore(clock: clock)
        fixtures = try PhotoFixtures()
    }

    private var store: WishlistStore { test.store }
    private let draft = TripDraft(name: "Lisbon Trams", collection: .springEscapes)

    /// A deleted trip's photo stays while the delete can be undone: lets go of every deletion.
    private func letGoOfDeletions() throws {
        clock.advance(by: .seconds(WishlistStore.keptFor + 1))
        try store.forgetExpiredDeletions()
    }

    @Test func sidewaysPhoneJPEGIsStoredUprightWithoutLocation() throws {
        let path = try fixtures.save(fixtures.markedImage(width: 300, height: 200, orientation: 6, gps: true), as: "phone.jpg")
        #expect(try decode(fixtures.bytes(path)).fieldNames.contains("exif-ifd3-GPSLatitude"), "the fixture must carry GPS")

        let id = try store.addTrip(draft, photoAt: path)

        let photo = try #require(try store.trip(id: id)?.photo)
        #expect((photo.width, photo.height, photo.thumbnailWidth, photo.thumbnailHeight) == (200, 300, 200, 300))
        let thumbnail = try #require(try store.thumbnail(tripID: id))
        #expect(thumbnail.format == .webp)
        let image = try decode(thumbnail.bytes)
        // Orientation 6 turns the stored top-left corner to the top right.
        #expect(isClose(try image.pixel(x: 190, y: 5), PhotoFixtures.red))
        #expect(isClose(try image.pixel(x: 5, y: 5), PhotoFixtures.blue))
        #expect(image.fieldNames.filter { $0.hasPrefix("exif-") || $0 == "xmp-data" }.isEmpty)
        #expect(!String(decoding: thumbnail.bytes, as: UTF8.self).contains("GPS"))
    }

    @Test func originalIsKeptUnderItsContentHash() throws {
        let path = try fixtures.write(fixtures.photo(width: 1200, height: 800), as: "photo.jpg")
        let id = try store.addTrip(draft, photoAt: path)

        let file = try #require(try store.photoFile(tripID: id))
        #expect(file.fileName == "\(try fixtures.sha256(of: path)).jpg")
        #expect(file.format == .jpeg)
        #expect(try fixtures.bytes(store.photos.url(for: file.fileName).path) == fixtures.bytes(path))
        #expect(file.version == String(file.fileName.prefix(16)))
        let row = try #require(try store.database.read { try $0.fetchOne("SELECT * FROM TripImage WHERE file_name = ?", [file.fileName]) })
        #expect(row["media_type"] as String == "image/jpeg")
        #expect((row["width"] as Int, row["height"] as Int) == (1200, 800))
        #expect(row["byte_count"] as Int == (try fixtures.bytes(path)).count)
    }

    @Test(arguments: ["photo.png", "photo.webp", "photo.gif", "photo.heic"])
    func everyAcceptedFormatIsStored(name: String) throws {
        let path = try fixtures.save(fixtures.markedImage(width: 640, height: 400), as: name)
        let id = try store.addTrip(draft, photoAt: path)

        let photo = try #require(try store.trip(id: id)?.photo)
        #expect((photo.thumbnailWidth, photo.thumbnailHeight) == (480, 300))
        #expect(isClose(try decode(#require(try store.thumbnail(tripID: id)).bytes).pixel(x: 5, y: 5), PhotoFixtures.red))
        let original = try #require(try store.database.read {
            try $0.fetchOne("SELECT file_name, display_file_name FROM TripImage WHERE id = (SELECT image_id FROM Trip WHERE id = ?)", [id])
        })
        let originalName: String = original["file_name"]
        #expect(originalName.hasSuffix("." + (name.split(separator: ".").last.map(String.init) ?? "")))
        #expect(try store.photoFile(tripID: id)?.fileName == originalName)
        #expect(original["display_file_name"] as String? == nil)
        // Pages show JPEG renditions whatever the format (browsers cannot show HEIC).
        for size in DisplaySize.allCases {
            let rendition = try #require(try store.photos.rendition(of: originalName, size: size))
            #expect(try MediaType.detect(path: rendition.path) == "image/jpeg")
            #expect(isClose(try decode(fixtures.bytes(rendition.path)).pixel(x: 5, y: 5), PhotoFixtures.red))
        }
        #expect(try fixtures.storedFiles(store).count == 13)
        #expect(try fixtures.renditionFiles(store).count == 13 * DisplaySize.allCases.count)
    }

    @Test(arguments: RefusedUpload.allCases)
    func refusedUploadsLeaveNothingBehind(upload: RefusedUpload) throws {
        let strict = try WishlistStore(path: test.directory.path + "/strict.sqlite", photoLimits: PhotoLimits(maxBytes: 300_000))
        defer { strict.close() }
        let path = try upload.make(fixtures)
        let filesBefore = try fixtures.storedFiles(strict)
        let tripsBefore = try strict.database.read { try $0.fetchScalar(Int.self, "SELECT count(*) FROM Trip") }

        #expect(throws: ValidationError(field: "photo", message: upload.message)) {
            try strict.addTrip(draft, photoAt: path)
        }
        #expect(try fixtures.storedFiles(strict) == filesBefore)
        #expect(try strict.database.read { try $0.fetchScalar(Int.self, "SELECT count(*) FROM Trip") } == tripsBefore)
        #expect(try strict.database.read { try $0.fetchScalar(Int.self, "SELECT count(*) FROM TripImage") } == 12)
    }

    @Test func typicalPhotoMakesASmallInlineThumbnail() throws {
        let path = try fixtures.write(fixtures.photo(width: 4000, height: 3000), as: "12mp.jpg")
        let id = try store.addTrip(draft, photoAt: path)
        let inlineBytes = try store.database.read { try $0.fetchScalar(Int.self, "SELECT length(TripImage.thumbnail) FROM Trip JOIN TripImage ON TripImage.id = Trip.image_id WHERE Trip.id = ?", [id]) }
        #expect(try #require(inlineBytes) < 40_000, "\(inlineBytes ?? 0) bytes")
        let photo = try #require(try store.trip(id: id)?.photo)
        #expect((photo.thumbnailWidth, photo.thumbnailHeight, photo.width, photo.height) == (480, 360, 2048, 1536),
                "the trip page shows the large rendition")
    }

    @Test func photoStoredBeforeRenditionsGetsThemOnFirstRequest() throws {
        let path = try fixtures.save(fixtures.markedImage(width: 1200, height: 800, orientation: 6, gps: true), as: "old.jpg")
        let id = try store.addTrip(draft, photoAt: path)
        let original = try #require(try store.photoFile(tripID: id)).fileName
        // As a photo uploaded before this version: its original alone.
        try FileManager.default.removeItem(at: store.photos.renditions.directory)
        try test.reopen()

        let medium = try #require(try test.store.photos.rendition(of: original, size: .medium))
        let image = try decode(fixtures.bytes(medium.path))
        #expect((image.width, image.height) == (683, 1024))
        #expect(isClose(try image.pixel(x: 675, y: 5), PhotoFixtures.red), "upright")
        #expect(image.fieldNames.filter { $0.hasPrefix("exif-") }.isEmpty)
        #expect(try fixtures.renditionFiles(test.store).count == DisplaySize.allCases.count, "both sizes made at once")
    }

    @Test func aNewCoverKeepsTheOldPhotoAndDeletingRemovesFilesNoLongerReferenced() throws {
        let first = try fixtures.write(fixtures.photo(width: 800, height: 600, seed: 1), as: "first.jpg")
        let second = try fixtures.write(fixtures.photo(width: 800, height: 600, seed: 2), as: "second.jpg")
        let id = try store.addTrip(draft, photoAt: first)
        let firstName = try #require(try store.photoFile(tripID: id)).fileName
        let renditionsBefore = try fixtures.renditionFiles(store)

        try store.updateTrip(id: id, draft: draft, photoAt: second)
        let secondName = try #require(try store.photoFile(tripID: id)).fileName
        #expect(secondName != firstName, "the new photo is the cover")
        let gallery = try store.fetch(.gallery(tripID: id))
        #expect(gallery.count == 2 && store.photos.contains(firstName), "the old one stays in the gallery, second")
        #expect(try fixtures.renditionFiles(store).count == renditionsBefore.count + DisplaySize.allCases.count)

        try store.deletePhoto(id: gallery[1].id)
        #expect(store.photos.contains(firstName), "kept while the delete can be undone")
        try letGoOfDeletions()
        #expect(try fixtures.renditionFiles(store).count == renditionsBefore.count, "the first photo's renditions went")
        #expect(try fixtures.renditionFiles(store).filter { $0.hasPrefix(firstName.prefix(64)) }.isEmpty)
        #expect(!store.photos.contains(firstName) && store.photos.contains(secondName))
        #expect(try store.database.read { try $0.fetchScalar(Int.self, "SELECT count(*) FROM TripImage WHERE file_name = ?", [firstName]) } == 0)

        try store.updateTrip(id: id, draft: TripDraft(name: "Renamed", collection: .springEscapes))
        #expect(store.photos.contains(secondName), "saving the form without a new photo keeps the photo")

        try store.deleteTrip(id: id)
        #expect(store.photos.contains(secondName), "kept while the delete can be undone")
        try letGoOfDeletions()
        #expect(!store.photos.contains(secondName))
        #expect(try fixtures.storedFiles(store).count == 12)
        #expect(try fixtures.renditionFiles(store).count == 12 * DisplaySize.allCases.count)
    }

    @Test func samePictureTwiceIsStoredOnceUntilTheLastTripLetsGo() throws {
        let path = try fixtures.write(fixtures.photo(width: 800, height: 600), as: "shared.jpg")
        let copy = try fixtures.write(fixtures.bytes(path), as: "shared-again.jpg")
        let first = try store.addTrip(draft, photoAt: path)
        let second = try store.addTrip(TripDraft(name: "Again", collection: .fallGetaways), photoAt: copy)

        let name = try #require(try store.photoFile(tripID: first)).fileName
        #expect(try store.photoFile(tripID: second)?.fileName == name)
        #expect(try fixtures.storedFiles(store).count == 13)
        #expect(try store.database.read { try $0.fetchScalar(Int.self, "SELECT count(*) FROM TripImage") } == 13)

        try store.deleteTrip(id: first)
        #expect(store.photos.contains(name))
        #expect(try store.photoFile(tripID: second)?.fileName == name)
        try store.deleteTrip(id: second)
        try letGoOfDeletions()
        #expect(!store.photos.contains(name))
    }

    @Test func failedWriteRemovesTheFilesItStored() throws {
        let path = try fixtures.write(fixtures.photo(width: 800, height: 600), as: "photo.jpg")
        #expect(throws: WishlistError.notFound(entity: "trip", id: 999)) {
            try store.updateTrip(id: 999, draft: draft, photoAt: path)
        }
        #expect(try fixtures.storedFiles(store).count == 12)
    }

    @Test func startupSweepRemovesOrphansAndReportsMissingFiles() throws {
        let directory = store.photos.directory
        // A file stored by an upload killed before its commit, and a half-written temporary file.
        let orphan = String(repeating: "ab", count: 32) + ".jpg"
        try Data([1, 2, 3]).write(to: directory.appendingPathComponent(orphan))
        try Data([4, 5]).write(to: directory.appendingPathComponent(".partial-1234"))
        let orphanRendition = String(repeating: "cd", count: 32) + "-2048.jpg"
        try Data([6]).write(to: store.photos.renditions.directory.appendingPathComponent(orphanRendition))
        let trip = try #require(try store.recentTrips(limit: 1).first)
        let lost = try #require(try store.photoFile(tripID: trip.id)).fileName
        try FileManager.default.removeItem(at: store.photos.url(for: lost))

        try test.reopen()
        let sweep = try test.store.sweepPhotos()

        #expect(sweep.removedFiles == [".partial-1234", orphan, orphanRendition])
        #expect(sweep.missingFiles == [lost])
        #expect(try fixtures.storedFiles(test.store).count == 11)
        #expect(try fixtures.renditionFiles(test.store).count == 12 * DisplaySize.allCases.count,
                "a missing original's renditions are kept: restoring the file from a backup brings the photo back")
    }

    /// Two processes on one data folder (`wishlist token create` beside a first `serve`): one's
    /// start-up sweep never removes the photo the other has stored and not yet committed.
    @Test func aSweepBesideAnotherProcessStoringLeavesItsPhoto() throws {
        let beside = try WishlistStore(path: test.directory.databasePath, clock: store.clock)
        defer { beside.close() }
        let prepared = try store.photos.prepare(fileAt: try fixtures.write(fixtures.photo(width: 640, height: 480), as: "new.jpg"))
        var sweptMeanwhile: [String] = []
        let name = try store.photos.committing(prepared) { stored in
            sweptMeanwhile = try beside.sweepPhotos().removedFiles
            return (try #require(stored).original.name, released: [])
        }
        #expect(!sweptMeanwhile.contains(name) && store.photos.contains(name))
        // Once no one is storing, the other process sweeps as before (this photo no row took).
        #expect(try beside.sweepPhotos().removedFiles.contains(name))
    }

    @Test func sampleTripsHaveDistinctGeneratedPhotos() throws {
        let trips = try TripCollection.allCases.flatMap { try store.trips(in: $0) }
        #expect(trips.count == 12)
        let photos = trips.compactMap(\.photo)
        #expect(photos.count == 12)
        #expect(Set(photos.map(\.version)).count == 12)
        #expect(photos.allSatisfy { ($0.width, $0.height, $0.thumbnailWidth, $0.thumbnailHeight) == (1600, 1000, 480, 300) })
        #expect(try fixtures.storedFiles(store).count == 12)
    }
}

/// The uploads that must be refused, each with its message.
enum RefusedUpload: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case textRenamedJPEG, svg, html, truncatedJPEG, pixelBomb, memoryBomb, overSize, empty

    var testDescription: String { rawValue }

    var message: String {
        switch self {
        case .textRenamedJPEG, .svg, .html: "That file isn't a supported image (JPEG, PNG, WebP, HEIC)."
        case .truncatedJPEG: "That image is damaged or incomplete and can't be read. Try exporting it again."
        case .pixelBomb: "That image is 20000×20000 pixels; the limit is 100 megapixels."
        case .memoryBomb: "That image would need 280.4 MB of memory to open; save it at a smaller size or as a normal JPEG."
        case .overSize: "That photo is 0.4 MB; the limit is 0.3 MB."
        case .empty: "That file is empty (0 bytes): choose the photo again."
        }
    }

    func make(_ fixtures: PhotoFixtures) throws -> String {
        switch self {
        case .textRenamedJPEG:
            return try fixtures.write(Array("Packing list: socks, charger, passport.\n".utf8), as: "notes.jpg")
        case .empty:
            return try fixtures.write([], as: "empty.jpg")
        case .svg:
            return try fixtures.write(Array(#"<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><rect width="9" height="9"/></svg>"#.utf8), as: "drawing.svg")
        case .html:
            return try fixtures.write(Array("<!DOCTYPE html><html><body><img src=x onerror=alert(1)></body></html>".utf8), as: "page.jpg")
        case .truncatedJPEG:
            let photo = try fixtures.photo(width: 1200, height: 800)
            return try fixtures.write(Array(photo.prefix(photo.count * 6 / 10)), as: "truncated.jpg")
        case .pixelBomb:
            let black = try VipsImageRef.make { shim_vips_black($0, 20_000, 20_000, 1) }
            return try fixtures.save(black, as: "bomb.png[bitdepth=1,compression=9]")
        case .memoryBomb:  // 49 megapixels, 16-bit, interlaced: decoding holds the whole frame
            let black = try VipsImageRef.make { shim_vips_black($0, 7_000, 7_000, 3) }
            let deep = try VipsImageRef.make { shim_vips_cast(black.pointer, $0, VIPS_FORMAT_USHORT) }
            return try fixtures.save(deep, as: "interlaced.png[interlace=true,bitdepth=16]")
        case .overSize:
            return try fixtures.write(Array(repeating: 0xFF, count: 420_000), as: "huge.jpg")
        }
    }
}

/// Images made with libvips in a temporary directory.
final class PhotoFixtures: Sendable {
    let directory: URL

    static let red: [UInt8] = [220, 30, 30]
    static let blue: [UInt8] = [30, 60, 200]

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("photo-fixtures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Blue with a red block in the top-left fifth; optionally an EXIF orientation and GPS position.
    func markedImage(width: Int, height: Int, orientation: Int? = nil, gps: Bool = false) throws -> VipsImageRef {
        let samples: [UInt8] = (0..<height).flatMap { y in
            (0..<width).flatMap { x in x < width / 5 && y < height / 5 ? Self.red : Self.blue }
        }
        let image = try VipsImageRef.fromSamples(samples, width: width, height: height, bands: 3, format: VIPS_FORMAT_UCHAR)
        if let orientation { vips_image_set_int(image.pointer, "orientation", Int32(orientation)) }
        if gps {
            vips_image_set_string(image.pointer, "exif-ifd3-GPSLatitude", "38/1 42/1 0/1")
            vips_image_set_string(image.pointer, "exif-ifd3-GPSLatitudeRef", "N")
        }
        return image
    }

    /// A photo-like JPEG (grain makes it compress like a camera picture).
    func photo(width: Int, height: Int, seed: Int = 1) throws -> [UInt8] {
        try ImageGenerator.gradientJPEG(
            width: width, height: height,
            colors: [RGBColor(red: 70, green: 130, blue: 210), RGBColor(red: 240, green: 190, blue: 140), RGBColor(red: 60, green: 120, blue: 70)],
            seed: seed, grain: 10, quality: 90)
    }

    /// Saves by suffix; saver options may follow in brackets.
    func save(_ image: VipsImageRef, as name: String) throws -> String {
        let target = directory.appendingPathComponent(name).path
        guard shim_vips_write_to_file(image.pointer, target) == 0 else { throw ImagingError.processingFailed(VipsError.takeMessage()) }
        return target.components(separatedBy: "[")[0]
    }

    func write(_ bytes: [UInt8], as name: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func sha256(of path: String) throws -> String {
        let hash = SHA256()
        try bytes(path).withUnsafeBytes { hash.update($0) }
        return hash.hexDigest()
    }

    /// The names in the store's images folder, besides the renditions folder.
    func storedFiles(_ store: WishlistStore) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: store.photos.directory.path))
            .subtracting([store.photos.renditions.directory.lastPathComponent])
    }

    func renditionFiles(_ store: WishlistStore) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: store.photos.renditions.directory.path))
    }
}

/// Decodes encoded bytes to check what came out.
func decode(_ bytes: [UInt8]) throws -> VipsImageRef {
    let image = bytes.withUnsafeBytes { shim_vips_open_buffer($0.baseAddress, $0.count) }
    guard let image else { throw ImagingError.corrupt(VipsError.takeMessage()) }
    return VipsImageRef(owning: image)
}

extension VipsImageRef {
    func pixel(x: Int, y: Int) throws -> [Int] {
        var values: UnsafeMutablePointer<Double>?
        var count: Int32 = 0
        guard shim_vips_getpoint(pointer, &values, &count, Int32(x), Int32(y)) == 0, let values else {
            throw ImagingError.processingFailed(VipsError.takeMessage())
        }
        defer { g_free(values) }
        return (0..<Int(count)).map { Int(values[$0].rounded()) }
    }
}

func isClose(_ pixel: [Int], _ expected: [UInt8], tolerance: Int = 40) -> Bool {
    pixel.count >= 3 && zip(pixel, expected).allSatisfy { abs($0 - Int($1)) <= tolerance }
}
