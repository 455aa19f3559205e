// Measurements behind Benchmarks/thumbnail/README.md; driven by ./run.
//
// The machine is shared, so its load swings while a benchmark runs. Variants are therefore
// interleaved — one run of each in turn, repeated — so every variant sees the same load, and
// both the median and the fastest run are reported.
import CMagic
import CVips
import Foundation
import Imaging

struct Variant {
    let label: String
    let work: () throws -> Void
}

func milliseconds(_ work: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try work()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
}

/// Runs every variant once to warm up, then `rounds` rounds of one run each, and prints each
/// variant's median and fastest time.
func compare(_ variants: [Variant], rounds: Int) throws {
    for variant in variants { try variant.work() }
    var times = Array(repeating: [Double](), count: variants.count)
    for _ in 0..<rounds {
        for (index, variant) in variants.enumerated() { times[index].append(try milliseconds(variant.work)) }
    }
    for (variant, samples) in zip(variants, times) {
        let sorted = samples.sorted()
        print(variant.label.padding(toLength: 52, withPad: " ", startingAt: 0),
              String(format: "%8.2f ms  (fastest %.2f)", sorted[sorted.count / 2], sorted[0]))
    }
}

func peakResidentMegabytes() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_maxrss) / 1024  // kilobytes on Linux
}

/// The same resize and encode as `Thumbnailer`, without its checks (type, header, pixel limit,
/// metadata removal, per-thread release): the baseline that shows what those safeguards cost.
func bareThumbnail(_ path: String) {
    var image: UnsafeMutablePointer<VipsImage>?
    var buffer: UnsafeMutableRawPointer?
    var length = 0
    guard shim_vips_thumbnail(path, &image, 480, 480, VIPS_SIZE_DOWN, VIPS_FAIL_ON_NONE) == 0, let image,
          shim_vips_jpegsave_buffer(image, &buffer, &length, 80) == 0 else { fatalError(String(cString: vips_error_buffer())) }
    g_free(buffer)
    g_object_unref(image)
}

/// Runs `work` with libvips set to `threads` worker threads, then back to the module's setting.
func withConcurrency(_ threads: Int32, _ work: () throws -> Void) rethrows {
    vips_concurrency_set(threads)
    defer { vips_concurrency_set(1) }
    try work()
}

let arguments = CommandLine.arguments
let thumbnailer = Thumbnailer()

/// Checks the file and makes a thumbnail, as an upload does.
func checkedThumbnail(_ path: String, format: OutputFormat = .jpeg) throws -> EncodedImage {
    try thumbnailer.makeThumbnail(of: thumbnailer.inspect(path: path), format: format)
}

/// The display renditions an upload makes, with PhotoLibrary's sides (`DisplaySize`), format and quality.
func renditions(_ info: ImageInfo, format: OutputFormat = .jpeg, quality: Int = 82) throws -> [EncodedImage] {
    try thumbnailer.makeRenditions(of: info, maxSides: [2048, 1024], format: format, quality: quality)
}

switch arguments.dropFirst().first {
case "generate":  // generate <path> <width> <height>: a photo-like JPEG (landscape + grain)
    let colors = [RGBColor(red: 70, green: 130, blue: 210), RGBColor(red: 240, green: 190, blue: 140), RGBColor(red: 60, green: 120, blue: 70)]
    let bytes = try ImageGenerator.gradientJPEG(width: Int(arguments[3])!, height: Int(arguments[4])!, colors: colors, seed: 7, grain: 10, quality: 90)
    try Data(bytes).write(to: URL(fileURLWithPath: arguments[2]))

case "once":  // once <path>: one warm-up, then the time of one 480 px JPEG thumbnail in ms
    _ = try checkedThumbnail(arguments[2])
    print(String(format: "%.3f", try milliseconds { _ = try checkedThumbnail(arguments[2]) }))

case "variants":  // variants <path> <rounds>: in-process variants of the same thumbnail
    let path = arguments[2]
    try compare([
        Variant(label: "Thumbnailer JPEG 480 (libvips concurrency 1)") { _ = try checkedThumbnail(path) },
        Variant(label: "Thumbnailer JPEG 480, libvips concurrency 2") { try withConcurrency(2) { _ = try checkedThumbnail(path) } },
        Variant(label: "Thumbnailer WebP 480") { _ = try checkedThumbnail(path, format: .webp) },
        Variant(label: "bare vips_thumbnail + jpegsave_buffer") { bareThumbnail(path) },
        Variant(label: "bare + vips_thread_shutdown()") { bareThumbnail(path); vips_thread_shutdown() },
    ], rounds: Int(arguments[3])!)
    let thumbnail = try checkedThumbnail(path)
    print("thumbnail: \(thumbnail.width)×\(thumbnail.height), \(thumbnail.bytes.count) bytes")

case "renditions":  // renditions <path> <rounds>: what an upload adds to the thumbnail
    let info = try thumbnailer.inspect(path: arguments[2])
    try compare([
        Variant(label: "renditions 2048 + 1024, JPEG Q82 (the app's)") { _ = try renditions(info) },
        Variant(label: "renditions 2048 + 1024, WebP Q80") { _ = try renditions(info, format: .webp, quality: 80) },
        Variant(label: "renditions 2048 alone, JPEG Q82") {
            _ = try thumbnailer.makeRenditions(of: info, maxSides: [2048], format: .jpeg, quality: 82)
        },
    ], rounds: Int(arguments[3])!)
    for image in try renditions(info) { print("rendition: \(image.width)×\(image.height), \(image.bytes.count) bytes") }

case "peak":  // peak <path>: one thumbnail in a fresh process, then the peak resident memory
    let before = peakResidentMegabytes()
    let thumbnail = try checkedThumbnail(arguments[2])
    print(String(format: "peak RSS %.1f MB (%.1f MB before the thumbnail), thumbnail %d bytes",
                 peakResidentMegabytes(), before, thumbnail.bytes.count))

case "generator":  // generator <rounds>: sample-picture speed at 1600×1000
    let colors = [RGBColor(red: 120, green: 180, blue: 230), RGBColor(red: 250, green: 210, blue: 160), RGBColor(red: 90, green: 140, blue: 80)]
    try compare([
        Variant(label: "ImageGenerator.gradientJPEG 1600×1000") {
            _ = try ImageGenerator.gradientJPEG(width: 1600, height: 1000, colors: colors, seed: 3)
        },
    ], rounds: Int(arguments[2])!)

case "magic":  // magic <path> <rounds>: libmagic costs behind MediaType's one-handle-behind-a-lock choice
    let path = arguments[2]
    try compare([
        Variant(label: "magic_open + magic_load (cost of a handle)") {
            let cookie = magic_open(MAGIC_MIME_TYPE)
            magic_load(cookie, nil)
            magic_close(cookie)
        },
        Variant(label: "MediaType.detect(path:), one thread") { _ = try MediaType.detect(path: path) },
        Variant(label: "100 × MediaType.detect(path:) on 2 threads") {
            DispatchQueue.concurrentPerform(iterations: 2) { _ in
                for _ in 0..<50 { _ = try? MediaType.detect(path: path) }
            }
        },
    ], rounds: Int(arguments[3])!)

default:
    print("usage: thumbnail-bench generate|once|variants|renditions|peak|generator|magic …  (see ./run)")
    exit(2)
}
