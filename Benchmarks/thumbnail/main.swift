// Measurements behind Benchmarks/thumbnail/README.md; driven by ./run.
import CMagic
import CVips
import Foundation
import Imaging

/// Wall times of `runs` calls of `work`, in milliseconds (after one warm-up call). The fastest
/// run shows what the code costs when other processes leave the cores alone.
struct Timing {
    let median: Double
    let fastest: Double
}

func measure(runs: Int, _ work: () throws -> Void) rethrows -> Timing {
    try work()
    var times: [Double] = []
    for _ in 0..<runs {
        let start = ContinuousClock.now
        try work()
        let elapsed = ContinuousClock.now - start
        times.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
    }
    let sorted = times.sorted()
    return Timing(median: sorted[sorted.count / 2], fastest: sorted[0])
}

func peakResidentMegabytes() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_maxrss) / 1024  // kilobytes on Linux
}

func report(_ label: String, _ timing: Timing) {
    print(label.padding(toLength: 52, withPad: " ", startingAt: 0), String(format: "%8.2f ms  (fastest %.2f)", timing.median, timing.fastest))
}

let arguments = CommandLine.arguments
let thumbnailer = Thumbnailer()

switch arguments.dropFirst().first {
case "generate":  // generate <path> <width> <height>: a photo-like JPEG (landscape + grain)
    let colors = [RGBColor(red: 70, green: 130, blue: 210), RGBColor(red: 240, green: 190, blue: 140), RGBColor(red: 60, green: 120, blue: 70)]
    let bytes = try ImageGenerator.gradientJPEG(width: Int(arguments[3])!, height: Int(arguments[4])!, colors: colors, seed: 7, grain: 10, quality: 90)
    try Data(bytes).write(to: URL(fileURLWithPath: arguments[2]))

case "thumbnail":  // thumbnail <path> <runs>: in-process timings
    let path = arguments[2]
    let runs = Int(arguments[3])!
    for concurrency: Int32 in [2, 1] {  // ends on 1, the module's setting, for what follows
        vips_concurrency_set(concurrency)
        report("Thumbnailer JPEG 480, concurrency \(concurrency)", try measure(runs: runs) {
            _ = try thumbnailer.makeThumbnail(path: path)
        })
    }
    report("Thumbnailer WebP 480, concurrency 1", try measure(runs: runs) {
        _ = try thumbnailer.makeThumbnail(path: path, format: .webp)
    })
    // The same resize and encode without the module's checks (type, header, limit, metadata
    // removal): what those safeguards cost; and what releasing per-thread buffers after every
    // operation (as the module does) costs.
    func bareThumbnail() {
        var image: UnsafeMutablePointer<VipsImage>?
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard shim_vips_thumbnail(path, &image, 480, 480, VIPS_SIZE_DOWN, VIPS_FAIL_ON_NONE) == 0, let image,
              shim_vips_jpegsave_buffer(image, &buffer, &length, 80) == 0 else { fatalError(String(cString: vips_error_buffer())) }
        g_free(buffer)
        g_object_unref(image)
    }
    report("bare vips_thumbnail + jpegsave_buffer, concurrency 1", measure(runs: runs, bareThumbnail))
    report("  the same + vips_thread_shutdown()", measure(runs: runs) {
        bareThumbnail()
        vips_thread_shutdown()
    })
    let thumbnail = try thumbnailer.makeThumbnail(path: path)
    print("thumbnail: \(thumbnail.width)×\(thumbnail.height), \(thumbnail.bytes.count) bytes")

case "peak":  // peak <path>: one thumbnail in a fresh process, then the peak resident memory
    let before = peakResidentMegabytes()
    let thumbnail = try thumbnailer.makeThumbnail(path: arguments[2])
    print(String(format: "peak RSS %.1f MB (%.1f MB before the thumbnail), thumbnail %d bytes",
                 peakResidentMegabytes(), before, thumbnail.bytes.count))

case "generator":  // generator <runs>: sample-picture speed at 1600×1000
    let colors = [RGBColor(red: 120, green: 180, blue: 230), RGBColor(red: 250, green: 210, blue: 160), RGBColor(red: 90, green: 140, blue: 80)]
    report("ImageGenerator.gradientJPEG 1600×1000", try measure(runs: Int(arguments[2])!) {
        _ = try ImageGenerator.gradientJPEG(width: 1600, height: 1000, colors: colors, seed: 3)
    })

case "magic":  // magic <path> <runs>: libmagic costs behind MediaType's one-handle-behind-a-lock choice
    let path = arguments[2]
    let runs = Int(arguments[3])!
    report("magic_open + magic_load (cost of a handle)", measure(runs: runs) {
        let cookie = magic_open(MAGIC_MIME_TYPE)
        magic_load(cookie, nil)
        magic_close(cookie)
    })
    report("MediaType.detect(path:), one thread", try measure(runs: runs) { _ = try MediaType.detect(path: path) })
    let contended = measure(runs: 20) {
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            for _ in 0..<50 { _ = try? MediaType.detect(path: path) }
        }
    }
    report("MediaType.detect(path:), 2 threads, per call", Timing(median: contended.median / 100, fastest: contended.fastest / 100))

default:
    print("usage: thumbnail-bench generate|thumbnail|peak|generator|magic …  (see ./run)")
    exit(2)
}
