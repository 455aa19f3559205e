// swift-tools-version:6.0
import PackageDescription

// Layers, bottom to top. The libraries in the middle know nothing of trips:
//   C system libraries  ->  HTTPServer, Mustache, Persistence, Imaging, FileArchive, Places, WorldMap, Calendars, Geodata  ->  WishlistCore  ->  WishlistWeb  ->  wishlist
let package = Package(
    name: "Wishlist",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "wishlist", targets: ["wishlist"]),
        // For Fuzz/ and Benchmarks/, separate packages that depend on this one by path.
        .library(name: "HTTPServer", targets: ["HTTPServer"]),
        .library(name: "Mustache", targets: ["Mustache"]),
        .library(name: "Persistence", targets: ["Persistence"]),
        .library(name: "WishlistCore", targets: ["WishlistCore"]),
        .library(name: "Imaging", targets: ["Imaging"]),
        // The thumbnail benchmark calls libvips and libmagic directly, beside Imaging.
        .library(name: "CVips", targets: ["CVips"]),
        .library(name: "CMagic", targets: ["CMagic"]),
    ],
    targets: [
        // C libraries from Debian's -dev packages (module map + pkg-config).
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd",
                       providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CVips", pkgConfig: "vips",
                       providers: [.apt(["libvips-dev"])]),
        .systemLibrary(name: "CMagic", pkgConfig: "libmagic",
                       providers: [.apt(["libmagic-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CWebPMux", pkgConfig: "libwebpmux",
                       providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CGnuTLS", pkgConfig: "gnutls",
                       providers: [.apt(["libgnutls28-dev"])]),
        .systemLibrary(name: "CBrotli", pkgConfig: "libbrotlienc libbrotlidec",
                       providers: [.apt(["libbrotli-dev"])]),
        .systemLibrary(name: "CMalloc"),
        .systemLibrary(name: "CArchive", pkgConfig: "libarchive",
                       providers: [.apt(["libarchive-dev"])]),
        .systemLibrary(name: "CGeonames", pkgConfig: "geonames",
                       providers: [.apt(["libgeonames-dev"])]),
        .systemLibrary(name: "CICal", pkgConfig: "libical",
                       providers: [.apt(["libical-dev"])]),
        .systemLibrary(name: "CGDAL", pkgConfig: "gdal",
                       providers: [.apt(["libgdal-dev"])]),

        // General libraries.
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD", "CZlib", "CGnuTLS", "CBrotli"]),
        .target(name: "Mustache"),
        .target(name: "Persistence", dependencies: ["CSQLite"]),
        .target(name: "Imaging", dependencies: ["CVips", "CMagic", "CWebPMux"]),
        .target(name: "FileArchive", dependencies: ["CArchive"]),
        .target(name: "Places", dependencies: ["CGeonames"]),
        .target(name: "Calendars", dependencies: ["CICal"]),
        .target(name: "Geodata", dependencies: ["CGDAL"]),
        // The basemap (Natural Earth 1:110m, see Resources/README.md) is a resource bundle beside the binary.
        .target(name: "WorldMap", dependencies: ["Places"], exclude: ["Resources/README.md"],
                resources: [.copy("Resources/countries-110m.txt")]),

        // The app.
        .target(name: "WishlistCore", dependencies: ["Persistence", "Imaging", "FileArchive", "Places"]),
        .target(name: "WishlistWeb", dependencies: ["HTTPServer", "Mustache", "Persistence", "Imaging", "Places", "WishlistCore", "WorldMap",
                                                    "Calendars", "Geodata"]),
        .executableTarget(name: "wishlist", dependencies: ["WishlistWeb", "WishlistCore", "HTTPServer", "Persistence", "CMalloc"]),

        // One test target per library target, and the clients and clock they share.
        .target(name: "TestSupport", dependencies: ["HTTPServer", "CZlib", "CBrotli"], path: "Tests/TestSupport"),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "CZlib", "TestSupport"]),
        .testTarget(name: "MustacheTests", dependencies: ["Mustache"], exclude: ["Spec"]),
        .testTarget(name: "PersistenceTests", dependencies: ["Persistence", "CSQLite"]),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging"]),
        .testTarget(name: "FileArchiveTests", dependencies: ["FileArchive", "CArchive"]),
        .testTarget(name: "PlacesTests", dependencies: ["Places"]),
        .testTarget(name: "WorldMapTests", dependencies: ["WorldMap", "Places"]),
        .testTarget(name: "CalendarsTests", dependencies: ["Calendars"]),
        .testTarget(name: "GeodataTests", dependencies: ["Geodata", "CGDAL"]),
        .testTarget(name: "WishlistCoreTests", dependencies: ["WishlistCore", "Persistence", "Imaging", "FileArchive", "Places",
                                                    "TestSupport"]),
        .testTarget(name: "WishlistWebTests", dependencies: ["WishlistWeb", "WishlistCore", "HTTPServer", "Persistence", "Imaging", "Places",
                                                   "TestSupport"], exclude: ["Snapshots"]),
    ],
    swiftLanguageModes: [.v6]
)
