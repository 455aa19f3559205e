import CVips
import Foundation
import Testing
@testable import Imaging

/// Decompression bombs: small files whose decode would hold hundreds of megabytes are refused
/// from their header, and heavy decodes that are allowed run one at a time.
@Suite(.serialized) struct DecodeBudgetTests {
    let fixtures: Fixtures
    let thumbnailer = Thumbnailer()

    init() throws {
        fixtures = try Fixtures()
    }

    /// A black 10000×10000 16-bit RGB PNG, interlaced: under a megabyte on disk, 600 MB decoded.
    func interlacedPNGBomb() throws -> String {
        let black = try VipsImageRef.make { shim_vips_black($0, 10_000, 10_000, 3) }
        let deep = try VipsImageRef.make { shim_vips_cast(black.pointer, $0, VIPS_FORMAT_USHORT) }
        return try fixtures.save(deep, as: "bomb.png[interlace=true,bitdepth=16]")
    }

    @Test func interlaced16BitPNGIsRefusedFromItsHeaderWithoutTheMemory() throws {
        let path = try interlacedPNGBomb()
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? .max) < 1_000_000)
        let growth = try PeakMemory.growth {
            #expect(throws: ImagingError.needsTooMuchMemory(bytes: 600_000_000, limit: ImageLimits.defaultMaxDecodeBytes)) {
                try thumbnailer.makeThumbnail(of: thumbnailer.inspect(path: path))
            }
        }
        #expect(growth < 200 * 1024 * 1024, "peak memory grew by \(growth / 1024 / 1024) MB")
    }

    @Test func progressiveJPEGIsRefusedFromItsHeader() throws {
        let black = try VipsImageRef.make { shim_vips_black($0, 8_000, 8_000, 3) }
        let path = try fixtures.save(black, as: "progressive.jpg[interlace=true]")
        #expect(throws: ImagingError.needsTooMuchMemory(bytes: 8_000 * 8_000 * 3 * 2, limit: ImageLimits.defaultMaxDecodeBytes)) {
            try thumbnailer.inspect(path: path)
        }
    }

    @Test func aTwelveMegapixelPhotoIsAcceptedAndStreamed() throws {
        let path = try fixtures.write(fixtures.photo(width: 4_000, height: 3_000), as: "phone.jpg")
        let info = try thumbnailer.inspect(path: path)
        #expect(info.decodeBytes == 4_000 * 3 * DecodeCost.streamedRows)
        #expect(try thumbnailer.makeThumbnail(of: info).width == 480)
    }

    @Test func twoHeavyDecodesRunOneAfterTheOther() throws {
        // A 600×400 GIF (two RGBA canvases, 1.9 MB) is heavy under a 4 MB budget: over a quarter.
        let limits = ImageLimits(maxDecodeBytes: 4 * 1024 * 1024)
        let path = try fixtures.save(fixtures.markedImage(width: 600, height: 400), as: "heavy.gif")
        let log = EventLog()
        let firstInside = DispatchSemaphore(value: 0), secondWaiting = DispatchSemaphore(value: 0)
        let gate = DecodeGate(willWait: { log.record("wait"); secondWaiting.signal() }, didEnter: {
            let isFirst = log.record("enter") == 1
            firstInside.signal()
            if isFirst {
                // Holds the first decode until the second is seen waiting (bounded, so a gate
                // that lets both in fails the test instead of hanging it).
                log.record(secondWaiting.wait(timeout: .now() + 30) == .success ? "saw wait" : "timed out")
            }
        })
        let gated = Thumbnailer(limits: limits, gate: gate)
        let info = try gated.inspect(path: path)
        #expect(limits.isHeavy(info))

        let group = DispatchGroup()
        for _ in 0..<2 {
            DispatchQueue.global().async(group: group) { _ = try? gated.makeThumbnail(of: info) }
            firstInside.wait()  // the second starts once the first holds the gate
        }
        group.wait()
        // The second entered only after the first, which it was seen waiting for, had left.
        #expect(log.events == ["enter", "wait", "saw wait", "enter"])
    }

    @Test func lightDecodesDoNotWaitForTheGate() throws {
        let log = EventLog()
        let gated = Thumbnailer(gate: DecodeGate(willWait: { log.record("wait") }, didEnter: { log.record("enter") }))
        let path = try fixtures.save(fixtures.markedImage(), as: "light.png")
        _ = try gated.makeThumbnail(of: gated.inspect(path: path))
        #expect(log.events.isEmpty)
    }
}

/// What the gate's hooks saw, in order, from any thread.
final class EventLog: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var recorded: [String] = []

    /// Appends `event`; returns how many times it has been recorded, this one included.
    @discardableResult
    func record(_ event: String) -> Int {
        lock.withLock {
            recorded.append(event)
            return recorded.filter { $0 == event }.count
        }
    }

    var events: [String] { lock.withLock { recorded } }
}

/// The process's peak resident memory (VmHWM), which Linux resets on request.
enum PeakMemory {
    static func growth(during work: () throws -> Void) throws -> Int {
        try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)  // peak := current
        let before = try peakBytes()
        try work()
        return try peakBytes() - before
    }

    private static func peakBytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        return try #require(Int(line.split(separator: " ")[1])) * 1024
    }
}
