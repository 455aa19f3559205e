import CVips
import Testing
@testable import Imaging

@Suite struct OpenBufferTests {
    /// libvips decodes lazily: an image opened from bytes must not depend on them afterwards.
    /// (AddressSanitizer found a test decode reading a freed array.)
    @Test func anImageOpenedFromBytesKeepsItsOwnCopy() throws {
        let jpeg = try ImageGenerator.gradientJPEG(width: 64, height: 48, colors: [RGBColor(red: 220, green: 30, blue: 30), RGBColor(red: 220, green: 30, blue: 30)], seed: 1)
        var bytes: [UInt8] = []
        bytes.append(contentsOf: jpeg)  // storage of its own, overwritten in place below
        let image = try #require(bytes.withUnsafeBytes { shim_vips_open_buffer($0.baseAddress, $0.count) })
        let opened = VipsImageRef(owning: image)
        bytes.withUnsafeMutableBytes { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) }
        let pixel = try decode(jpeg).pixel(x: 32, y: 24)
        #expect(try opened.pixel(x: 32, y: 24) == pixel)
    }
}
