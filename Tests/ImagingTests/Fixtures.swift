import CVips
import Foundation
@testable import Imaging

/// Test images made at test time with libvips (no binary blobs), in a fresh temporary directory.
final class Fixtures {
    let directory: URL

    static let red: [UInt8] = [220, 30, 30]
    static let blue: [UInt8] = [30, 60, 200]

    init() throws {
        Imaging.initialize()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("imaging-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    /// A blue picture with a red block in its top-left corner (a fifth of each side).
    func markedImage(width: Int = 300, height: Int = 200) throws -> VipsImageRef {
        let samples: [UInt8] = (0..<height).flatMap { y in
            (0..<width).flatMap { x in x < width / 5 && y < height / 5 ? Self.red : Self.blue }
        }
        return try .fromSamples(samples, width: width, height: height, bands: 3, format: VIPS_FORMAT_UCHAR)
    }

    /// A copy of `image` carrying metadata fields (orientation, GPS…), set before saving.
    func withFields(_ image: VipsImageRef, integers: [String: Int] = [:], strings: [String: String] = [:]) throws -> VipsImageRef {
        let copy = try VipsImageRef.make { shim_vips_copy(image.pointer, $0) }
        for (name, value) in integers { vips_image_set_int(copy.pointer, name, Int32(value)) }
        for (name, value) in strings { vips_image_set_string(copy.pointer, name, value) }
        return copy
    }

    /// Saves by suffix; saver options may follow in brackets ("big.png[bitdepth=1]").
    @discardableResult
    func save(_ image: VipsImageRef, as name: String) throws -> String {
        let target = path(name)
        guard shim_vips_write_to_file(image.pointer, target) == 0 else {
            throw ImagingError.processingFailed(VipsError.takeMessage())
        }
        return target.components(separatedBy: "[")[0]
    }

    @discardableResult
    func write(_ bytes: [UInt8], as name: String) throws -> String {
        try Data(bytes).write(to: directory.appendingPathComponent(name))
        return path(name)
    }

    @discardableResult
    func write(_ text: String, as name: String) throws -> String {
        try write(Array(text.utf8), as: name)
    }

    /// A photo-like JPEG: generated landscape plus grain, so it compresses like a camera picture.
    func photo(width: Int, height: Int, seed: Int = 1) throws -> [UInt8] {
        try ImageGenerator.gradientJPEG(
            width: width, height: height,
            colors: [RGBColor(red: 70, green: 130, blue: 210), RGBColor(red: 240, green: 190, blue: 140), RGBColor(red: 60, green: 120, blue: 70)],
            seed: seed, grain: 10, quality: 90)
    }
}

/// Decodes encoded bytes for checking what came out.
func decode(_ bytes: [UInt8]) throws -> VipsImageRef {
    let image = bytes.withUnsafeBytes { shim_vips_open_buffer($0.baseAddress, $0.count) }
    guard let image else { throw ImagingError.corrupt(VipsError.takeMessage()) }
    return VipsImageRef(owning: image)
}

extension VipsImageRef {
    /// The pixel at (x, y), rounded to whole levels.
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

/// Whether two colours are within `tolerance` levels on every channel (JPEG is lossy).
func isClose(_ pixel: [Int], _ expected: [UInt8], tolerance: Int = 40) -> Bool {
    pixel.count >= 3 && zip(pixel, expected).allSatisfy { abs($0 - Int($1)) <= tolerance }
}
