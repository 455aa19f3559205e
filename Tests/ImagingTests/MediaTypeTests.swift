import Dispatch
import Foundation
import Synchronization
import Testing
@testable import Imaging

@Suite struct MediaTypeTests {
    let fixtures: Fixtures

    init() throws {
        fixtures = try Fixtures()
    }

    @Test(arguments: [("a.jpg", ImageFormat.jpeg), ("a.png", .png), ("a.webp", .webp), ("a.heic", .heif), ("a.gif", .gif)])
    func imageFormatsAreRecognisedFromTheirBytes(name: String, format: ImageFormat) throws {
        let path = try fixtures.save(fixtures.markedImage(width: 40, height: 30), as: name)
        let detected = try MediaType.detect(path: path)
        #expect(detected == format.mediaType)
        #expect(ImageFormat(mediaType: detected) == format)
    }

    @Test func theNameDoesNotMatterOnlyTheBytes() throws {
        let png = try fixtures.save(fixtures.markedImage(width: 40, height: 30), as: "real.png")
        let disguised = try fixtures.write(Array(try Data(contentsOf: URL(fileURLWithPath: png))), as: "disguised.jpg")
        #expect(try MediaType.detect(path: disguised) == "image/png")
        #expect(try MediaType.detect(bytes: Array("plain words".utf8)) == "text/plain")
    }

    @Test func oneHandleIsSafeAcrossThreads() throws {
        let jpeg = try fixtures.photo(width: 64, height: 48)
        let text = Array("just text, nothing else\n".utf8)
        let mismatches = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 400) { index in
            let (bytes, expected) = index.isMultiple(of: 2) ? (jpeg, "image/jpeg") : (text, "text/plain")
            if (try? MediaType.detect(bytes: bytes)) != expected { mismatches.withLock { $0 += 1 } }
        }
        #expect(mismatches.withLock { $0 } == 0)
    }

    @Test func missingFileIsReportedAsUnreadable() {
        let path = fixtures.path("absent.jpg")
        #expect(throws: ImagingError.unreadable(path: path, reason: "No such file or directory")) {
            try MediaType.detect(path: path)
        }
    }

    @Test func formatsMapBothWays() {
        for format in ImageFormat.allCases {
            #expect(ImageFormat(mediaType: format.mediaType) == format)
        }
        #expect(ImageFormat(mediaType: "image/avif") == nil)
        #expect(ImageFormat(mediaType: "image/svg+xml") == nil)
        #expect(ImageFormat.heif.fileExtension == "heic")
        #expect(ImageFormat.jpeg.fileExtension == "jpg")
    }
}
