import Testing
@testable import HTTPServer

@Suite struct CrossSiteReadProtectionTests {
    let protection = CrossSiteReadProtection(paths: ["/api", "/trips/*/photo"])

    @Test func prefixesMatchWholeSegmentsAndStarsOneSegment() {
        for path in ["/api", "/api/", "/api/trips/3", "//api//trips", "/trips/3/photo", "/trips/x/photo/big"] {
            #expect(protection.isProtected(path), "\(path)")
        }
        for path in ["/", "/apiary", "/trips/3", "/trips/photo", "/trips/3/photos", "/static/api"] {
            #expect(!protection.isProtected(path), "\(path)")
        }
    }
}
