import Dispatch
import Foundation
import Imaging
import Synchronization

/// Generated photos for the sample trips: each trip's landscape in its colours, made once per
/// process (the pictures never change, and tests open many fresh stores).
enum SamplePhotos {
    /// Modest, so the first start stays quick (drawing time: Benchmarks/README.md).
    static let size = (width: 1600, height: 1000)

    /// One prepared photo per sample trip, in `SampleTrips.all` order.
    static func prepared(with library: PhotoLibrary) throws -> [PreparedPhoto] {
        try cache.withLock { cached in
            if let cached { return cached }
            let photos = try render(with: library)
            cached = photos
            return photos
        }
    }

    private static let cache = Mutex<[PreparedPhoto]?>(nil)

    private static func render(with library: PhotoLibrary) throws -> [PreparedPhoto] {
        let results = Mutex([Int: Result<PreparedPhoto, any Error>]())
        DispatchQueue.concurrentPerform(iterations: SampleTrips.all.count) { index in
            let result = Result { try render(SampleTrips.all[index], seed: index + 1, with: library) }
            results.withLock { $0[index] = result }
        }
        return try results.withLock { results in
            try SampleTrips.all.indices.map { try results[$0]!.get() }
        }
    }

    /// Draws the picture and thumbnails it through the same checks as an upload.
    private static func render(_ trip: SampleTrip, seed: Int, with library: PhotoLibrary) throws -> PreparedPhoto {
        let jpeg = try ImageGenerator.gradientJPEG(
            width: size.width, height: size.height, colors: trip.colors, landscape: trip.landscape, seed: seed)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sample-photo-\(UUID().uuidString).jpg")
        try Data(jpeg).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let photo = try library.prepare(fileAt: file.path)
        return PreparedPhoto(original: .bytes(jpeg), format: photo.format, width: photo.width, height: photo.height,
                             thumbnail: photo.thumbnail, renditions: photo.renditions)
    }
}
