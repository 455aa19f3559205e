import Foundation

/// What a generated picture shows, so that pictures of different places look like those places.
/// Each is a few smooth layers over the sky: bands below skylines, walls, ribbons and discs.
public enum Landscape: String, CaseIterable, Sendable {
    case hills, coast, surf, blossomMountain, snowPeak, narrows, rainforest, waterfall, temple, desert, aurora, reef, dunes
}

private let white = RGBColor(red: 255, green: 255, blue: 255)
private let snow = RGBColor(red: 242, green: 246, blue: 252)
private let sand = RGBColor(red: 232, green: 204, blue: 160)
private let foliage = RGBColor(red: 28, green: 92, blue: 52)

extension Landscape {
    func draw(in scene: Scene, colors: [RGBColor], random: inout SplitMix64) throws -> VipsImageRef {
        let land = colors[colors.count - 1]
        let skyColors = self == .reef ? [colors[0].mixed(with: white, 0.35), colors[0], land.mixed(with: RGBColor.black, 0.3)] : colors
        var picture = try scene.sky(colors: skyColors, tilt: random.next(in: -0.4...0.4))
        let glow = colors[0].mixed(with: white, 0.5)
        picture = try scene.disc(on: picture, color: glow, opacity: 0.35, softness: 1,
                                 center: (random.next(in: 0.1...0.9), random.next(in: 0.1...0.5)), radius: random.next(in: 0.35...0.6))
        let sun = (x: random.next(in: 0.15...0.85), y: random.next(in: 0.12...0.32))
        if ![.reef, .aurora, .narrows].contains(self) {
            picture = try scene.disc(on: picture, color: colors[1].mixed(with: white, 0.7), opacity: 0.9, softness: 0.12,
                                     center: sun, radius: random.next(in: 0.05...0.09))
        }
        var layers = Layers(scene: scene, picture: picture)
        try drawScene(on: &layers, colors: colors, land: land, random: &random)
        return layers.picture
    }

    private func drawScene(on l: inout Layers, colors: [RGBColor], land: RGBColor, random r: inout SplitMix64) throws {
        let shade = { (fraction: Double) in land.mixed(with: RGBColor.black, fraction) }
        switch self {
        case .hills:
            try l.hills(shade(0.3).mixed(with: colors[0], 0.2), level: r.next(in: 0.58...0.68), &r)
            try l.hills(shade(0.55), level: r.next(in: 0.76...0.86), &r)
        case .coast:
            let sea = colors[0].mixed(with: RGBColor.black, 0.3)
            try l.band(sea) { _ in 0.56 }
            try l.ribbon(colors[1].mixed(with: white, 0.4), opacity: 0.5, thickness: 0.012) { _ in 0.6 }
            let headland = waves(&r, amplitude: 0.005...0.02)
            try l.band(shade(0.35)) { x in 0.34 + headland(x) + 1.7 * pow(max(0, x - 0.28), 2) }
            let beach = waves(&r, amplitude: 0.005...0.015)
            try l.band(sand) { x in 0.9 + beach(x) - 0.1 * x }
        case .surf:
            try l.band(shade(0.2)) { _ in 0.5 }
            for level in [0.6, 0.72, 0.86] {
                let crest = waves(&r, cycles: 1...3, amplitude: 0.005...0.02)
                try l.ribbon(white, opacity: 0.75, thickness: 0.014 + level * 0.01) { x in level + crest(x) }
            }
            try l.band(sand) { x in 0.95 - 0.06 * x }
        case .blossomMountain:
            try l.mountains(peaks: [(0.5, 0.3)], slope: 1.1, snowLine: 0.42, rock: RGBColor(red: 110, green: 120, blue: 150), &r)
            try l.hills(shade(0.25), level: 0.8, &r)
            try l.scatter(RGBColor(red: 255, green: 183, blue: 205), count: 9, x: 0.0...0.3, y: -0.05...0.18, radius: 0.07...0.13, &r)
            try l.scatter(RGBColor(red: 250, green: 160, blue: 190), count: 6, x: 0.8...1.05, y: -0.05...0.14, radius: 0.06...0.11, &r)
        case .snowPeak:
            let peaks = (0..<3).map { index in (Double(index) * 0.4 + 0.1 + r.next(in: -0.05...0.05), r.next(in: 0.14...0.3)) }
            try l.mountains(peaks: peaks, slope: 1.1, snowLine: 0.4, rock: shade(0.35), &r)
            try l.hills(snow.mixed(with: colors[0], 0.15), level: 0.84, &r)
        case .narrows:
            for (edge, fraction) in [(0.38, 0.15), (0.24, 0.45)] {
                let left = waves(&r, cycles: 1...4, amplitude: 0.01...0.03), right = waves(&r, cycles: 1...4, amplitude: 0.01...0.03)
                try l.wall(shade(fraction), fromLeft: true) { y in edge + left(y) - 0.1 * y }
                try l.wall(shade(fraction + 0.1), fromLeft: false) { y in 1 - edge + right(y) + 0.1 * y }
            }
            try l.band(RGBColor(red: 90, green: 140, blue: 150)) { x in 0.9 + 0.01 * sin(9 * x) }
        case .rainforest, .waterfall:
            try l.hills(shade(0.1).mixed(with: colors[0], 0.3), level: 0.4, &r)
            if self == .waterfall {
                try l.band(white.mixed(with: colors[0], 0.2)) { x in abs(x - 0.55) < 0.035 ? 0.38 : 2 }
                try l.ribbon(white, opacity: 0.6, thickness: 0.05) { x in 0.86 + 0.01 * sin(20 * x) }
            } else {
                try l.ribbon(white, opacity: 0.35, thickness: 0.06) { x in 0.58 + 0.03 * sin(5 * x) }
            }
            try l.scatter(foliage, count: 8, x: -0.05...0.35, y: 0.75...1.0, radius: 0.1...0.18, &r)
            try l.scatter(foliage.mixed(with: land, 0.4), count: 8, x: 0.7...1.05, y: 0.7...1.0, radius: 0.1...0.18, &r)
        case .temple:
            let ground = shade(0.6)
            try l.band(ground) { x in Self.templeSkyline(x) }
            try l.band(colors[1].mixed(with: RGBColor.black, 0.35)) { x in 0.8 + 0.005 * sin(30 * x) }
            try l.ribbon(colors[1].mixed(with: white, 0.3), opacity: 0.4, thickness: 0.01) { _ in 0.86 }
        case .desert:
            try l.mountains(peaks: [(0.2, 0.5), (0.7, 0.46)], slope: 0.6, snowLine: 0, rock: shade(0.1), &r)
            try l.band(sand) { _ in 0.72 }
            try l.scatter(RGBColor(red: 196, green: 146, blue: 112), count: 4, x: 0.1...0.9, y: 0.7...0.76, radius: 0.05...0.1, &r)
            let trunk = r.next(in: 0.6...0.85)
            try l.band(RGBColor(red: 70, green: 60, blue: 50)) { x in abs(x - trunk) < 0.008 ? 0.5 : 2 }
            try l.scatter(RGBColor(red: 90, green: 110, blue: 70), count: 3, x: (trunk - 0.04)...(trunk + 0.04), y: 0.46...0.52, radius: 0.025...0.04, &r)
            try l.band(sand.mixed(with: RGBColor.black, 0.2)) { x in 0.9 + 0.02 * sin(4 * x) }
        case .aurora:
            try l.scatter(white, count: 14, x: 0...1, y: 0...0.5, radius: 0.004...0.008, opacity: 0.8, softness: 0.5, &r)
            for (color, opacity) in [(colors[1], 0.7), (RGBColor(red: 150, green: 110, blue: 230), 0.35)] {
                let curve = waves(&r, cycles: 0.5...2, amplitude: 0.03...0.08)
                let level = r.next(in: 0.22...0.38)
                try l.ribbon(color, opacity: opacity, thickness: 0.09) { x in level + curve(x) }
            }
            try l.mountains(peaks: [(0.3, 0.55), (0.75, 0.6)], slope: 0.9, snowLine: 0.62, rock: shade(0.5), &r)
            try l.hills(snow.mixed(with: colors[0], 0.4), level: 0.86, &r)
        case .reef:
            for index in 0..<3 {
                let start = 0.2 + Double(index) * 0.25
                try l.ribbon(white, opacity: 0.22, thickness: 0.03, vertical: true) { y in start + 0.25 * y }
            }
            try l.hills(sand, level: 0.84, &r)
            for color in [RGBColor(red: 255, green: 122, blue: 100), RGBColor(red: 255, green: 176, blue: 80), RGBColor(red: 205, green: 95, blue: 165)] {
                try l.scatter(color, count: 3, x: 0...1, y: 0.8...0.95, radius: 0.05...0.1, &r)
            }
            try l.scatter(RGBColor(red: 255, green: 214, blue: 70), count: 5, x: 0.3...0.8, y: 0.35...0.6, radius: 0.012...0.02, opacity: 1, softness: 0.3, &r)
        case .dunes:
            for (level, fraction) in [(0.6, 0.0), (0.72, 0.15), (0.86, 0.3)] {
                let crest = waves(&r, cycles: 0.5...1.8, amplitude: 0.02...0.06)
                try l.band(colors[1].mixed(with: land, 0.6).mixed(with: RGBColor.black, fraction)) { x in level + crest(x) }
            }
        }
    }

    /// A ruined temple's towers: stepped cones on a terrace.
    private static func templeSkyline(_ x: Double) -> Double {
        let towers: [(center: Double, top: Double, half: Double)] = [
            (0.5, 0.3, 0.09), (0.32, 0.42, 0.06), (0.68, 0.42, 0.06), (0.18, 0.52, 0.045), (0.82, 0.52, 0.045),
        ]
        let tower = towers.map { tower -> Double in
            let distance = abs(x - tower.center) / tower.half
            return distance < 1 ? tower.top + (distance * 5).rounded(.down) / 5 * 0.14 : 2
        }.min()!
        return min(tower, abs(x - 0.5) < 0.4 ? 0.62 : 0.7)
    }
}

/// The picture being drawn, with the scene's layers as mutating steps.
private struct Layers {
    let scene: Scene
    var picture: VipsImageRef

    mutating func band(_ color: RGBColor, skyline: (Double) -> Double) throws {
        picture = try scene.band(on: picture, color: color, skyline: skyline)
    }

    mutating func wall(_ color: RGBColor, fromLeft: Bool, edge: (Double) -> Double) throws {
        picture = try scene.wall(on: picture, color: color, fromLeft: fromLeft, edge: edge)
    }

    mutating func ribbon(_ color: RGBColor, opacity: Double, thickness: Double, vertical: Bool = false,
                         curve: (Double) -> Double) throws {
        picture = try scene.ribbon(on: picture, color: color, opacity: opacity, thickness: thickness, vertical: vertical, curve: curve)
    }

    mutating func hills(_ color: RGBColor, level: Double, _ random: inout SplitMix64) throws {
        let skyline = waves(&random)
        try band(color) { level + skyline($0) }
    }

    /// Peaks (x, top) with straight flanks; above `snowLine` they are white.
    mutating func mountains(peaks: [(Double, Double)], slope: Double, snowLine: Double, rock: RGBColor,
                            _ random: inout SplitMix64) throws {
        let ridge = { (x: Double) in peaks.map { $0.1 + slope * abs(x - $0.0) }.min()! }
        let jagged = waves(&random, cycles: 3...8, amplitude: 0.005...0.015)
        if snowLine > 0 { try band(snow, skyline: ridge) }
        try band(rock) { x in max(ridge(x), snowLine + jagged(x)) }
    }

    mutating func scatter(_ color: RGBColor, count: Int, x: ClosedRange<Double>, y: ClosedRange<Double>,
                          radius: ClosedRange<Double>, opacity: Double = 0.95, softness: Double = 0.15,
                          _ random: inout SplitMix64) throws {
        for _ in 0..<count {
            picture = try scene.disc(on: picture, color: color, opacity: opacity, softness: softness,
                                     center: (random.next(in: x), random.next(in: y)), radius: random.next(in: radius))
        }
    }
}
