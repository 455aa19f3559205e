import CVips
import Foundation

/// The layers of a generated picture; positions and sizes are fractions of the picture.
struct Scene {
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

    /// `color` below `skyline` (its height at each x, both fractions), with a one-pixel soft
    /// edge. A skyline below the picture (over 1) leaves that column untouched.
    func band(on picture: VipsImageRef, color: RGBColor, skyline: (Double) -> Double) throws -> VipsImageRef {
        let depthBelowSkyline = try coordinates.weightedSum([0, 1]).add(profile(vertical: false, skyline))
        let mask = try depthBelowSkyline.linear([255], [0]).cast(VIPS_FORMAT_UCHAR)
        return try mask.blend(picture.constant(color.channels), over: picture)
    }

    /// A wall of `color` from the left or right side to `edge` (its x at each height).
    func wall(on picture: VipsImageRef, color: RGBColor, fromLeft: Bool, edge: (Double) -> Double) throws -> VipsImageRef {
        let pastEdge = try coordinates.weightedSum([1, 0]).add(profile(vertical: true, edge))
        let mask = try pastEdge.linear([fromLeft ? -255 : 255], [0]).cast(VIPS_FORMAT_UCHAR)
        return try mask.blend(picture.constant(color.channels), over: picture)
    }

    /// A soft stripe of `color` along `curve` (y at each x, or with `vertical` x at each y),
    /// `thickness` from its middle to where it fades out.
    func ribbon(on picture: VipsImageRef, color: RGBColor, opacity: Double, thickness: Double, vertical: Bool = false,
                curve: (Double) -> Double) throws -> VipsImageRef {
        let offset = try coordinates.weightedSum(vertical ? [1, 0] : [0, 1]).add(profile(vertical: vertical, curve))
        let t = thickness * Double(vertical ? width : height)
        let mask = try offset.multiply(offset).linear([-255 * opacity / (t * t)], [255 * opacity]).cast(VIPS_FORMAT_UCHAR)
        return try mask.blend(picture.constant(color.channels), over: picture)
    }

    /// `-f` in pixels for each column (or row), spread over the picture: adding it to a
    /// coordinate gives the distance past the curve.
    private func profile(vertical: Bool, _ f: (Double) -> Double) throws -> VipsImageRef {
        let (count, scale) = vertical ? (height, Double(width)) : (width, Double(height))
        let samples: [Float] = (0..<count).map { Float(-f(Double($0) / Double(count)) * scale) }
        let line = try VipsImageRef.fromSamples(samples, width: vertical ? 1 : width, height: vertical ? height : 1,
                                                bands: 1, format: VIPS_FORMAT_FLOAT)
        return try line.replicate(across: vertical ? width : 1, down: vertical ? 1 : height)
    }
}

/// A wavy line around 0: three sines of random length, phase and size.
func waves(_ random: inout SplitMix64, cycles: ClosedRange<Double> = 0.5...3.5,
           amplitude: ClosedRange<Double> = 0.01...0.04) -> (Double) -> Double {
    let parts = (0..<3).map { _ in
        (cycles: random.next(in: cycles), phase: random.next(in: 0...(2 * .pi)), amplitude: random.next(in: amplitude))
    }
    return { x in parts.reduce(0) { $0 + $1.amplitude * sin(2 * .pi * $1.cycles * x + $1.phase) } }
}
