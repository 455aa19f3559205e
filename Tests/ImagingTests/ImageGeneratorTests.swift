import Testing
@testable import Imaging

@Suite struct ImageGeneratorTests {
    static let sky = RGBColor(red: 40, green: 90, blue: 200)
    static let dusk = RGBColor(red: 250, green: 150, blue: 90)

    @Test func samePictureForTheSameSeedAndADifferentOneOtherwise() throws {
        let first = try ImageGenerator.gradientJPEG(width: 320, height: 200, colors: [Self.sky, Self.dusk], seed: 42)
        let again = try ImageGenerator.gradientJPEG(width: 320, height: 200, colors: [Self.sky, Self.dusk], seed: 42)
        let other = try ImageGenerator.gradientJPEG(width: 320, height: 200, colors: [Self.sky, Self.dusk], seed: 43)
        #expect(first == again)
        #expect(first != other)
    }

    @Test func pictureHasTheSizeAndThePaletteAsked() throws {
        let bytes = try ImageGenerator.gradientJPEG(width: 320, height: 200, colors: [Self.sky, Self.dusk], seed: 5)
        #expect(try MediaType.detect(bytes: bytes) == "image/jpeg")
        let image = try decode(bytes)
        #expect((image.width, image.height, image.bands) == (320, 200, 3))
        // The top corners are sky: blue dominates there, as in the first colour.
        for x in [2, 317] {
            let pixel = try image.pixel(x: x, y: 2)
            #expect(pixel[2] > pixel[0], "pixel \(pixel) at (\(x), 2)")
        }
        // The bottom row is the near hills: darker than both stops.
        let ground = try image.pixel(x: 160, y: 197)
        #expect(ground.reduce(0, +) < [Self.dusk.red, Self.dusk.green, Self.dusk.blue].map(Int.init).reduce(0, +))
    }

    @Test func everyLandscapeIsAPictureOfItsOwnAndTheSameEachTime() throws {
        let colors = [Self.sky, Self.dusk, RGBColor(red: 60, green: 120, blue: 70)]
        let pictures = try Landscape.allCases.map { landscape in
            let picture = try ImageGenerator.gradientJPEG(width: 160, height: 100, colors: colors, landscape: landscape, seed: 7)
            #expect(try ImageGenerator.gradientJPEG(width: 160, height: 100, colors: colors, landscape: landscape, seed: 7) == picture)
            return try decode(picture)
        }
        // Compared by what they show, not by their bytes: the middle row differs from scene to scene.
        let middles = try pictures.map { image in try stride(from: 4, to: 160, by: 16).map { try image.pixel(x: $0, y: 60) } }
        #expect(Set(middles).count == Landscape.allCases.count)
    }

    @Test(arguments: [[RGBColor](), [sky], [sky, dusk, sky, dusk]])
    func paletteNeedsTwoOrThreeColours(colors: [RGBColor]) {
        #expect(throws: ImagingError.self) {
            try ImageGenerator.gradientJPEG(width: 10, height: 10, colors: colors, seed: 1)
        }
    }
}
