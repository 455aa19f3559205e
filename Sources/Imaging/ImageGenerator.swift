import CVips
import Foundation

/// An sRGB colour with 8-bit channels.
public struct RGBColor: Sendable, Hashable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    var channels: [Double] { [Double(red), Double(green), Double(blue)] }

    /// The colour `fraction` of the way towards `other`.
    func mixed(with other: RGBColor, _ fraction: Double) -> RGBColor {
        func channel(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Double(a) + (Double(b) - Double(a)) * fraction).rounded()) }
        return RGBColor(red: channel(red, other.red), green: channel(green, other.green), blue: channel(blue, other.blue))
    }

    static let white = RGBColor(red: 255, green: 255, blue: 255)
    static let black = RGBColor(red: 0, green: 0, blue: 0)
}

/// Generated landscape pictures: a tilted gradient sky through the given colours and a scene of
/// the chosen `Landscape` (hills, a coast, a snow peak, an aurora…). The same seed always gives
/// the same picture. Built lazily by libvips and evaluated in one pass while encoding. Every layer
/// is smooth, so the scene is drawn at a quarter of the size and enlarged, which makes it 16× cheaper.
public enum ImageGenerator {
    static let detailDivisor = 4

    /// - Parameters:
    ///   - colors: two or three gradient stops, top to bottom; the last is the land's.
    ///   - landscape: what the picture shows below and in the sky.
    ///   - seed: chooses the tilt, the sun, the skylines and where things stand.
    ///   - grain: standard deviation of added Gaussian noise, in 0–255 levels; 0 for none.
    ///     Noise makes the picture compress like a photograph (useful for tests and benchmarks).
    public static func gradientJPEG(
        width: Int, height: Int, colors: [RGBColor], landscape: Landscape = .hills, seed: Int, grain: Double = 0,
        quality: Int = 85
    ) throws -> [UInt8] {
        Imaging.initialize()
        defer { Imaging.releaseThreadResources() }
        guard width > 0, height > 0, (2...3).contains(colors.count) else {
            throw ImagingError.processingFailed("a generated picture needs a positive size and two or three colours")
        }
        var random = SplitMix64(seed: seed)
        let (sceneWidth, sceneHeight) = ((width + detailDivisor - 1) / detailDivisor, (height + detailDivisor - 1) / detailDivisor)
        let scene = Scene(width: sceneWidth, height: sceneHeight,
                          coordinates: try .coordinates(width: sceneWidth, height: sceneHeight))
        var picture = try landscape.draw(in: scene, colors: colors, random: &random)
        picture = try picture.enlarged(by: detailDivisor, croppedTo: width, height)
        if grain > 0 {
            picture = try picture.add(.gaussianNoise(width: width, height: height, sigma: grain)).cast(VIPS_FORMAT_UCHAR)
        }
        return try picture.encode { shim_vips_jpegsave_buffer($0, $1, $2, Int32(quality)) }
    }
}
