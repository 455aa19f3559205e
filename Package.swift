// swift-tools-version:6.0
import PackageDescription

// Layers, bottom to top. The four libraries in the middle know nothing of trips:
//   C system libraries  ->  HTTPServer, Mustache, Persistence, Imaging  ->  WishlistCore  ->  WishlistWeb  ->  wishlist
let package = Package(
    name: "Wishlist",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "wishlist", targets: ["wishlist"]),
        // For the fuzz targets in Fuzz/, a separate package that depends on this one by path.
        .library(name: "HTTPServer", targets: ["HTTPServer"]),
        .library(name: "Mustache", targets: ["Mustache"]),
        .library(name: "Persistence", targets: ["Persistence"]),
        .library(name: "WishlistCore", targets: ["WishlistCore"]),
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
        .systemLibrary(name: "CMalloc"),

        // General libraries.
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD", "CZlib"]),
        .target(name: "Mustache"),
        .target(name: "Persistence", dependencies: ["CSQLite"]),
        .target(name: "Imaging", dependencies: ["CVips", "CMagic", "CWebPMux"]),

        // The app.
        .target(name: "WishlistCore", dependencies: ["Persistence", "Imaging"]),
        .target(name: "WishlistWeb", dependencies: ["HTTPServer", "Mustache", "Persistence", "Imaging", "WishlistCore"]),
        .executableTarget(name: "wishlist", dependencies: ["WishlistWeb", "WishlistCore", "HTTPServer", "Persistence", "CMalloc"]),

        // Benchmarks (see Benchmarks/README.md).
        .executableTarget(name: "page-bench", dependencies: ["HTTPServer", "Mustache"], path: "Benchmarks/page",
                          exclude: ["run"]),
        .executableTarget(name: "http-bench", dependencies: ["HTTPServer"], path: "Benchmarks/http", exclude: ["run"]),
        .executableTarget(name: "thumbnail-bench", dependencies: ["Imaging", "CVips", "CMagic"],
                          path: "Benchmarks/thumbnail", exclude: ["README.md", "run"]),
        .executableTarget(name: "store-bench", dependencies: ["WishlistCore", "Persistence"], path: "Benchmarks/store"),
        .systemLibrary(name: "CLinuxExtras", path: "Benchmarks/sse/CLinuxExtras"),
        .executableTarget(name: "sse-bench", dependencies: ["CLinuxExtras"], path: "Benchmarks/sse",
                          exclude: ["README.md", "run", "CLinuxExtras"]),

        // One test target per library target.
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "CZlib"]),
        .testTarget(name: "MustacheTests", dependencies: ["Mustache"]),
        .testTarget(name: "PersistenceTests", dependencies: ["Persistence", "CSQLite"]),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging"]),
        .testTarget(name: "WishlistCoreTests", dependencies: ["WishlistCore", "Persistence", "Imaging"]),
        .testTarget(name: "WishlistWebTests", dependencies: ["WishlistWeb", "WishlistCore", "HTTPServer", "Persistence", "Imaging"]),
    ],
    swiftLanguageModes: [.v6]
)
