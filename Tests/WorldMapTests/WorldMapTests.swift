import Foundation
import Places
import Testing
@testable import WorldMap

@Suite struct MapBoundsTests {
    func at(_ latitude: Double, _ longitude: Double) -> Coordinate { Coordinate(latitude: latitude, longitude: longitude) }

    @Test func noPinShowsTheWholeWorld() {
        #expect(MapBounds.fitting([]) == .world)
    }

    @Test func onePinShowsARegionCentredOnIt() {
        let bounds = MapBounds.fitting([at(35.02, 135.75)])
        #expect(bounds.width == MapBounds.singlePinWidth)
        #expect(bounds.width == bounds.height * MapBounds.aspectRatio)
        #expect(abs((bounds.west + bounds.east) / 2 - 135.75) < 1e-9)
        #expect(abs((bounds.south + bounds.north) / 2 - 35.02) < 1e-9)
    }

    @Test func manyPinsAreAllInsideWithPadding() {
        let pins = [at(36.97, -122.03), at(45.9, 6.13), at(35.02, 135.75), at(-33.87, 151.21)]
        let bounds = MapBounds.fitting(pins)
        for pin in pins {
            #expect(pin.latitude > bounds.south + 1 && pin.latitude < bounds.north - 1)
            var longitude = pin.longitude
            if longitude < bounds.west { longitude += 360 }
            #expect(longitude > bounds.west + 1 && longitude < bounds.east - 1)
        }
        #expect(abs(bounds.width - bounds.height * MapBounds.aspectRatio) < 1e-9)
        #expect(bounds.south >= -90 && bounds.north <= 90)
    }

    @Test func pinsOnBothSidesOfThePacificSpanItAcrossTheAntimeridian() {
        // Hilo and Kyoto: 85° apart over the Pacific, 275° the other way.
        let bounds = MapBounds.fitting([at(19.72, -155.09), at(35.02, 135.75)])
        #expect(bounds.west < 135.75 && bounds.west > 100)
        #expect(bounds.east > 180 && bounds.east > 360 - 155.09)
        #expect(bounds.width < 150)
    }

    @Test func pinsEastAndWestOfAsiaSpanItWithoutCrossingTheAntimeridian() {
        // London and Kyoto: 136° apart over Asia, 224° over the Americas.
        let bounds = MapBounds.fitting([at(51.5, -0.13), at(35.02, 135.75)])
        #expect(bounds.west < -0.13 && bounds.east > 135.75 && bounds.east <= 180)
    }

    @Test func pinsAroundTheWholeGlobeShowTheWorld() {
        // Every 20°: the widest gap leaves 340° to span, the world with its padding.
        let bounds = MapBounds.fitting(stride(from: -180.0, to: 180, by: 20).map { at(0, $0) })
        #expect(bounds == .world)
    }
}

@Suite struct MapDrawingTests {
    func pin(_ latitude: Double, _ longitude: Double, _ label: String = "x") -> MapPin {
        MapPin(coordinate: Coordinate(latitude: latitude, longitude: longitude), label: label, href: "/trips/1")
    }

    @Test func theBasemapHoldsEveryCountry() throws {
        let basemap = Basemap.naturalEarth110m
        #expect(Set(basemap.rings.map(\.name)).count == 177)
        #expect(basemap.rings.contains { $0.name == "Japan" })
    }

    @Test func aMalformedLineIsRefused() {
        #expect(throws: BasemapError.malformedLine("Nowhere\t1,2 3")) { try Basemap(text: "Nowhere\t1,2 3\n") }
    }

    @Test func aZoomedViewDrawsOnlyNearbyLandInFinerDetail() throws {
        let basemap = Basemap.naturalEarth110m
        let world = MapDrawing(basemap: basemap, pins: [])
        let japan = MapDrawing(basemap: basemap, pins: [pin(35.02, 135.75)])
        #expect(world.viewBox == "-180 -90 360 180")
        #expect(japan.landPaths.count < world.landPaths.count / 4)
        #expect(!japan.landPaths.isEmpty)
        // Finer detail: more points per ring drawn in the zoomed view.
        let points = { (drawing: MapDrawing) in drawing.landPaths.map { $0.split(separator: "L").count }.max() ?? 0 }
        #expect(points(japan) > 3)
        #expect(world.landPaths.joined().count < 150_000)
    }

    @Test func acrossTheAntimeridianPinsAndLandAreShiftedEast() throws {
        let basemap = Basemap.naturalEarth110m
        let drawing = MapDrawing(basemap: basemap, pins: [pin(19.72, -155.09, "Hilo"), pin(35.02, 135.75, "Kyoto")])
        #expect(drawing.pins.map(\.x) == [360 - 155.09, 135.75])
        #expect(drawing.pins.map(\.y) == [-19.72, -35.02])
        // Hawaii's islands, shifted past 180, are drawn.
        #expect(drawing.landPaths.contains { $0.hasPrefix("M20") })
    }

    @Test func manyPinsBecomeClustersWithTheirCounts() throws {
        let pins = (0..<(MapDrawing.pinLimit + 1)).map { index in
            pin(index.isMultiple(of: 2) ? 35 : -33, index.isMultiple(of: 2) ? 135 : 151, "p\(index)")
        }
        let drawing = MapDrawing(basemap: try Basemap(text: ""), pins: pins)
        #expect(drawing.pins.map(\.pin.count) == [251, 250])
        #expect(drawing.pins.map(\.pin.label) == ["p0", "p1"])
    }
}
