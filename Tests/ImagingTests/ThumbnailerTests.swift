import CVips
import Foundation
import Testing
@testable import Imaging

@Suite struct ThumbnailerTests {
    let fixtures: Fixtures
    let thumbnailer = Thumbnailer()

    init() throws {
        fixtures = try Fixtures()
    }

    @Test func exifOrientationSixComesOutUpright() throws {
        let sideways = try fixtures.withFields(fixtures.markedImage(width: 300, height: 200), integers: ["orientation": 6])
        let path = try fixtures.save(sideways, as: "sideways.jpg")

        let info = try thumbnailer.inspect(path: path)
        #expect(info.format == .jpeg)
        #expect(info.orientation == 6)
        #expect((info.width, info.height, info.uprightWidth, info.uprightHeight) == (300, 200, 200, 300))

        let thumbnail = try thumbnailer.thumbnail(path: path, maxSide: 150)
        #expect((thumbnail.width, thumbnail.height) == (100, 150))
        // Orientation 6 means "turn a quarter clockwise": the stored top-left lands top-right.
        let image = try decode(thumbnail.bytes)
        #expect(isClose(try image.pixel(x: 95, y: 5), Fixtures.red))
        #expect(isClose(try image.pixel(x: 5, y: 5), Fixtures.blue))
        #expect(image.orientation == 1)
    }

    @Test func theDateTakenIsReadFromTheCamerasEXIF() throws {
        let dated = try fixtures.withFields(fixtures.markedImage(width: 60, height: 40), integers: [:],
                                            strings: ["exif-ifd2-DateTimeOriginal": "2019:06:01 12:34:56"])
        #expect(try thumbnailer.inspect(path: fixtures.save(dated, as: "dated.jpg")).dateTaken == "2019-06-01T12:34:56")
        let undated = try fixtures.save(fixtures.markedImage(width: 60, height: 40), as: "undated.jpg")
        #expect(try thumbnailer.inspect(path: undated).dateTaken == nil)
        let unset = try fixtures.withFields(fixtures.markedImage(width: 60, height: 40), integers: [:],
                                            strings: ["exif-ifd2-DateTimeOriginal": "    :  :     :  :  "])
        #expect(try thumbnailer.inspect(path: fixtures.save(unset, as: "unset.jpg")).dateTaken == nil)
    }

    @Test(arguments: ["marked.png", "marked.webp", "marked.heic", "marked.gif"])
    func everyAcceptedFormatThumbnails(name: String) throws {
        let path = try fixtures.save(fixtures.markedImage(width: 300, height: 200), as: name)
        let thumbnail = try thumbnailer.thumbnail(path: path, maxSide: 150)
        #expect(thumbnail.format == .jpeg)
        #expect((thumbnail.width, thumbnail.height) == (150, 100))
        let image = try decode(thumbnail.bytes)
        #expect(isClose(try image.pixel(x: 5, y: 5), Fixtures.red))
        #expect(isClose(try image.pixel(x: 140, y: 90), Fixtures.blue))
    }

    @Test func animatedGIFGivesItsFirstFrame() throws {
        // Two 120×80 frames stacked: red first, blue second.
        let frames = (0..<160).flatMap { y in (0..<120).flatMap { _ in y < 80 ? Fixtures.red : Fixtures.blue } }
        let strip = try VipsImageRef.fromSamples(frames, width: 120, height: 160, bands: 3, format: VIPS_FORMAT_UCHAR)
        let path = try fixtures.save(fixtures.withFields(strip, integers: ["page-height": 80]), as: "animated.gif")

        let thumbnail = try thumbnailer.thumbnail(path: path, maxSide: 60)
        #expect((thumbnail.width, thumbnail.height) == (60, 40))
        #expect(isClose(try decode(thumbnail.bytes).pixel(x: 30, y: 35), Fixtures.red))
    }

    @Test func renditionsAreUprightSRGBFittedAndCarryNoMetadata() throws {
        let tagged = try fixtures.withFields(
            fixtures.markedImage(width: 600, height: 400), integers: ["orientation": 6],
            strings: ["exif-ifd3-GPSLatitude": "51/1 30/1 0/1", "exif-ifd3-GPSLatitudeRef": "N", "exif-ifd0-Make": "Acme"])
        let path = try fixtures.save(tagged, as: "phone.jpg[profile=p3]")

        let renditions = try thumbnailer.makeRenditions(of: thumbnailer.inspect(path: path), maxSides: [300, 150],
                                                        format: .jpeg, quality: 82)
        #expect(renditions.map { [$0.width, $0.height] } == [[200, 300], [100, 150]])
        for rendition in renditions {
            let image = try decode(rendition.bytes)
            #expect((image.width, image.height) == (rendition.width, rendition.height))
            // Orientation 6 turns the stored top-left corner to the top right.
            #expect(isClose(try image.pixel(x: rendition.width - 5, y: 5), Fixtures.red))
            #expect(isClose(try image.pixel(x: 5, y: 5), Fixtures.blue))
            #expect(image.fieldNames.filter { $0.hasPrefix("exif-") || ["xmp-data", "iptc-data", "icc-profile-data"].contains($0) }.isEmpty,
                    "\(image.fieldNames)")
        }
    }

    @Test func heicGetsBrowserReadyRenditions() throws {
        let path = try fixtures.save(fixtures.markedImage(width: 300, height: 200), as: "photo.heic")
        #expect(try thumbnailer.inspect(path: path).format.isBrowserDisplayable == false)

        let renditions = try thumbnailer.makeRenditions(of: thumbnailer.inspect(path: path), maxSides: [2048, 1024],
                                                        format: .jpeg, quality: 82)
        #expect(renditions.map { [$0.width, $0.height] } == [[300, 200], [300, 200]], "never enlarged")
        #expect(isClose(try decode(renditions[0].bytes).pixel(x: 5, y: 5), Fixtures.red))
        #expect(try MediaType.detect(bytes: renditions[0].bytes) == "image/jpeg")
    }

    @Test(arguments: [
        ("notes.jpg", "This is not a picture.\n", "text/plain"),
        ("drawing.svg", #"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>"#, "image/svg+xml"),
        ("page.png", "<!DOCTYPE html><html><head><title>x</title></head><body><img src=x onerror=alert(1)></body></html>", "text/html"),
    ])
    func nonImagesAreRefusedByTheirBytes(name: String, content: String, detected: String) throws {
        let path = try fixtures.write(content, as: name)
        #expect(throws: ImagingError.unsupportedType(detected)) { try thumbnailer.thumbnail(path: path) }
    }

    @Test func libvipsItselfRefusesUntrustedLoaders() throws {
        // A second line of defence behind type detection: this libvips can load SVG (librsvg),
        // but not once `Imaging.initialize()` has blocked untrusted loaders.
        let path = try fixtures.write(#"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>"#, as: "icon.svg")
        #expect(throws: ImagingError.self) { try VipsImageRef.open(header: path) }
    }

    @Test func avifIsRefused() throws {
        let path = try fixtures.save(fixtures.markedImage(), as: "picture.avif[compression=av1]")
        #expect(throws: ImagingError.unsupportedType("image/avif")) { try thumbnailer.inspect(path: path) }
    }

    @Test func truncatedJPEGIsRefusedAsCorrupt() throws {
        let photo = try fixtures.photo(width: 1200, height: 800)
        let path = try fixtures.write(Array(photo.prefix(photo.count * 6 / 10)), as: "truncated.jpg")
        #expect(throws: ImagingError.self) { try thumbnailer.thumbnail(path: path) }
        do {
            _ = try thumbnailer.thumbnail(path: path)
        } catch {
            guard case .corrupt = error as? ImagingError else { Issue.record("expected .corrupt, got \(error)"); return }
        }
    }

    /// A cut-off interlaced PNG fails only while its pixels are decoded, for every output format
    /// (the WebP save is where libvips 8.14 leaked such a decode; test_decode_budget.py measures it).
    @Test(arguments: [OutputFormat.jpeg, .webp])
    func cutOffInterlacedPNGIsRefusedAsCorrupt(format: OutputFormat) throws {
        let whole = try fixtures.save(fixtures.markedImage(width: 900, height: 600), as: "whole.png[interlace=true,compression=0]")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: whole)))
        let path = try fixtures.write(Array(bytes.prefix(bytes.count / 2)), as: "cut-off-\(format).png")
        do {
            _ = try thumbnailer.thumbnail(path: path, format: format)
            Issue.record("a cut-off PNG made a thumbnail")
        } catch {
            guard case .corrupt = error as? ImagingError else { Issue.record("expected .corrupt, got \(error)"); return }
        }
    }

    @Test func warningsOfSuccessfulDecodesDoNotPileUpInTheErrorBuffer() throws {
        // Zeros over part of the scan data: libjpeg warns ("Corrupt JPEG data") and decodes.
        var damaged = try fixtures.photo(width: 600, height: 400)
        let scanStart = try #require((0..<damaged.count - 1).first { damaged[$0] == 0xFF && damaged[$0 + 1] == 0xDA })
        damaged.replaceSubrange(scanStart + 40..<scanStart + 240, with: [UInt8](repeating: 0, count: 200))
        let path = try fixtures.write(damaged, as: "damaged-scan.jpg")
        for _ in 0..<5 {
            _ = try thumbnailer.makeThumbnail(of: thumbnailer.inspect(path: path))
            #expect(strlen(vips_error_buffer()) == 0)
        }
    }

    /// Only the file's first kilobyte is kept: its header says 20000×20000, its pixels are cut
    /// off. Decoding them fails as `.corrupt` (shown with a limit that lets it try), so the
    /// refusal can only have come from the header.
    @Test func hugeImageIsRefusedFromItsHeaderAlone() throws {
        let whole = try fixtures.save(
            VipsImageRef.make { shim_vips_black($0, 20_000, 20_000, 1) }, as: "huge.png[bitdepth=1,compression=9]")
        let path = try fixtures.write(Array(try Data(contentsOf: URL(fileURLWithPath: whole)).prefix(1024)), as: "header-only.png")
        #expect(throws: ImagingError.tooManyPixels(width: 20_000, height: 20_000, limit: 100_000_000)) {
            try thumbnailer.thumbnail(path: path)
        }
        do {
            let lenient = Thumbnailer(limits: ImageLimits(maxPixels: 400_000_000))
            _ = try lenient.makeThumbnail(of: try lenient.inspect(path: path))
            Issue.record("the cut-off pixels were decoded")
        } catch {
            guard case .corrupt = error as? ImagingError else { Issue.record("expected .corrupt, got \(error)"); return }
        }
        #expect(ImagingError.tooManyPixels(width: 20_000, height: 20_000, limit: 100_000_000).description
            == "The image is 20000×20000 pixels, over the limit of 100000000 pixels.")
    }

    @Test func pixelLimitIsInclusive() throws {
        let strict = Thumbnailer(limits: ImageLimits(maxPixels: 1_200))
        let atLimit = try fixtures.save(fixtures.markedImage(width: 40, height: 30), as: "at-limit.png")
        let overLimit = try fixtures.save(fixtures.markedImage(width: 40, height: 31), as: "over-limit.png")
        #expect(try strict.inspect(path: atLimit).width == 40)
        #expect(throws: ImagingError.tooManyPixels(width: 40, height: 31, limit: 1_200)) { try strict.inspect(path: overLimit) }
    }

    @Test(arguments: [OutputFormat.jpeg, .webp])
    func locationAndOtherMetadataAreRemoved(format: OutputFormat) throws {
        let tagged = try fixtures.withFields(
            fixtures.markedImage(),
            integers: ["orientation": 3],
            strings: ["exif-ifd3-GPSLatitude": "51/1 30/1 0/1", "exif-ifd3-GPSLatitudeRef": "N", "exif-ifd0-Make": "Acme"])
        let path = try fixtures.save(tagged, as: "tagged.jpg")
        let uploaded = try decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(uploaded.fieldNames.contains("exif-ifd3-GPSLatitude"), "the fixture must carry GPS for this test to mean anything")

        let thumbnail = try thumbnailer.thumbnail(path: path, maxSide: 120, format: format)
        #expect(thumbnail.format == format.imageFormat)
        let fields = try decode(thumbnail.bytes).fieldNames
        #expect(fields.filter { $0.hasPrefix("exif-") || $0 == "xmp-data" || $0 == "iptc-data" }.isEmpty, "\(fields)")
        #expect(!String(decoding: thumbnail.bytes, as: UTF8.self).localizedCaseInsensitiveContains("exif"))
    }

    @Test func colourProfileIsAppliedBeforeItIsRemoved() throws {
        // The same numbers mean a more saturated red in Display P3 than in sRGB.
        let untagged = try fixtures.save(fixtures.markedImage(), as: "srgb.jpg[Q=95]")
        let displayP3 = try fixtures.save(fixtures.markedImage(), as: "p3.jpg[Q=95,profile=p3]")
        let plainRed = try decode(thumbnailer.thumbnail(path: untagged, maxSide: 150).bytes).pixel(x: 5, y: 5)
        let p3Red = try decode(thumbnailer.thumbnail(path: displayP3, maxSide: 150).bytes).pixel(x: 5, y: 5)
        #expect(isClose(plainRed, Fixtures.red, tolerance: 12))
        #expect(p3Red[0] > plainRed[0] + 8 && p3Red[1] < plainRed[1] - 15, "P3 red \(p3Red) vs sRGB red \(plainRed)")
    }

    @Test func twelveMegapixelPhotoMakesASmallThumbnail() throws {
        let path = try fixtures.write(fixtures.photo(width: 4000, height: 3000), as: "12mp.jpg")
        let thumbnail = try thumbnailer.thumbnail(path: path)
        #expect((thumbnail.width, thumbnail.height) == (480, 360))
        #expect(thumbnail.bytes.count < 40_000, "\(thumbnail.bytes.count) bytes")
    }

    @Test func transparentPNGIsFlattenedOnWhite() throws {
        let samples: [UInt8] = Array(repeating: [0, 0, 0, 0], count: 50 * 40).flatMap { $0 }
        let clear = try VipsImageRef.fromSamples(samples, width: 50, height: 40, bands: 4, format: VIPS_FORMAT_UCHAR)
        let path = try fixtures.save(clear, as: "clear.png")
        let thumbnail = try thumbnailer.thumbnail(path: path)
        #expect(isClose(try decode(thumbnail.bytes).pixel(x: 10, y: 10), [255, 255, 255], tolerance: 3))
    }
}

private extension Thumbnailer {
    /// Checks the file, then thumbnails it, as an upload does.
    func thumbnail(path: String, maxSide: Int = 480, format: OutputFormat = .jpeg) throws -> EncodedImage {
        try makeThumbnail(of: inspect(path: path), maxSide: maxSide, format: format)
    }
}
