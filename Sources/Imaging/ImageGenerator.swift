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

/// Generated landscape-like pictures: a tilted gradient sky through the given colours, a soft
/// sun and glow, and two rows of hills. The same seed always gives the same picture.
/// Built lazily by libvips and evaluated in one pass while encoding. Every layer is smooth, so
/// the scene is drawn at a quarter of the size and enlarged, which makes it 16× cheaper.
public enum ImageGenerator {
    static let detailDivisor = 4

    /// - Parameters:
    ///   - colors: two or three gradient stops, top to bottom.
    ///   - seed: chooses the tilt, the sun, the glow and the hills.
    ///   - grain: standard deviation of added Gaussian noise, in 0–255 levels; 0 for none.
    ///     Noise makes the picture compress like a photograph (useful for tests and benchmarks).
    public static func gradientJPEG(
        width: Int, height: Int, colors: [RGBColor], seed: Int, grain: Double = 0, quality: Int = 85
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
        var picture = try scene.sky(colors: colors, tilt: random.next(in: -0.4...0.4))
        let glowColor = colors[0].mixed(with: .white, 0.5)
        picture = try scene.disc(on: picture, color: glowColor, opacity: 0.35, softness: 1,
                                 center: (random.next(in: 0.1...0.9), random.next(in: 0.1...0.5)),
                                 radius: random.next(in: 0.35...0.6))
        picture = try scene.disc(on: picture, color: colors[1].mixed(with: .white, 0.7), opacity: 0.9, softness: 0.12,
                                 center: (random.next(in: 0.15...0.85), random.next(in: 0.15...0.4)),
                                 radius: random.next(in: 0.05...0.09))
        let horizon = colors[colors.count - 1]
        picture = try scene.hills(on: picture, color: horizon.mixed(with: .black, 0.3).mixed(with: colors[0], 0.2),
                                  level: random.next(in: 0.58...0.68), random: &random)
        picture = try scene.hills(on: picture, color: horizon.mixed(with: .black, 0.55),
                                  level: random.next(in: 0.76...0.86), random: &random)
        picture = try picture.enlarged(by: detailDivisor, croppedTo: width, height)
        if grain > 0 {
            picture = try picture.add(.gaussianNoise(width: width, height: height, sigma: grain)).cast(VIPS_FORMAT_UCHAR)
        }
        return try picture.encode { shim_vips_jpegsave_buffer($0, $1, $2, Int32(quality)) }
    }
}

/// The layers of a generated picture; positions and sizes are fractions of the picture.
private struct Scene {
    let width: Int
    let height: Int
    /// Two bands: each pixel's x and y.
    let coordinates: VipsImageRef

    private var side: Double { Double(min(width, height)) }

    /// A gradient through `colors` along a direction `tilt` radians off vertical.
    func sky(colors: [RGBColor], tilt: Double) throws -> VipsImageRef {
        let (dx, dy) = (sin(tilt), cos(tilt))
        let cornerPositions = [(0.0, 0.0), (Double(width), 0), (0, Double(height)), (Double(width), Double(height))]
            .map { $0.0 * dx + $0.1 * dy }
        let (low, high) = (cornerPositions.min()!, cornerPositions.max()!)
        let scale = 255 / (high - low)
        let position = try coordinates.weightedSum([dx * scale, dy * scale]).linear([1], [-low * scale]).cast(VIPS_FORMAT_UCHAR)
        return try position.mapThrough(lookupTable: lookupTable(colors))
    }

    /// 256 colours running smoothly through the stops.
    private func lookupTable(_ stops: [RGBColor]) throws -> VipsImageRef {
        let samples: [UInt8] = (0..<256).flatMap { index -> [UInt8] in
            let position = Double(index) / 255 * Double(stops.count - 1)
            let segment = min(Int(position), stops.count - 2)
            let fraction = position - Double(segment)
            let eased = fraction * fraction * (3 - 2 * fraction)
            let color = stops[segment].mixed(with: stops[segment + 1], eased)
            return [color.red, color.green, color.blue]
        }
        return try .fromSamples(samples, width: 256, height: 1, bands: 3, format: VIPS_FORMAT_UCHAR)
    }

    /// A round patch of `color`, opaque to `opacity` inside and fading out over its outer
    /// `softness` (1: fades all the way from the centre).
    func disc(on picture: VipsImageRef, color: RGBColor, opacity: Double, softness: Double,
              center: (x: Double, y: Double), radius: Double) throws -> VipsImageRef {
        let r = radius * side
        let offset = try coordinates.linear([1, 1], [-center.x * Double(width), -center.y * Double(height)])
        let distanceSquared = try offset.multiply(offset).weightedSum([1, 1])
        // 255 · (1 − d²/r²) / softness: above 255 (clipped) in the core, 0 outside the rim.
        let mask = try distanceSquared.linear([-255 / (r * r * softness)], [255 / softness])
            .cast(VIPS_FORMAT_UCHAR).linear([opacity], [0]).cast(VIPS_FORMAT_UCHAR)
        return try mask.blend(picture.constant(color.channels), over: picture)
    }

    /// A band of `color` below a wavy skyline around `level`, with an anti-aliased edge.
    func hills(on picture: VipsImageRef, color: RGBColor, level: Double, random: inout SplitMix64) throws -> VipsImageRef {
        let waves = (0..<3).map { _ in
            (cycles: random.next(in: 0.5...3.5), phase: random.next(in: 0...(2 * .pi)), amplitude: random.next(in: 0.01...0.04))
        }
        let negatedSkyline: [Float] = (0..<width).map { column in
            let x = Double(column) / Double(width)
            let y = waves.reduce(level) { $0 + $1.amplitude * sin(2 * .pi * $1.cycles * x + $1.phase) }
            return Float(-y * Double(height))
        }
        let skyline = try VipsImageRef.fromSamples(negatedSkyline, width: width, height: 1, bands: 1, format: VIPS_FORMAT_FLOAT)
            .replicate(across: 1, down: height)
        let depthBelowSkyline = try coordinates.weightedSum([0, 1]).add(skyline)
        let mask = try depthBelowSkyline.linear([255], [0]).cast(VIPS_FORMAT_UCHAR)  // a one-pixel soft edge
        return try mask.blend(picture.constant(color.channels), over: picture)
    }
}
