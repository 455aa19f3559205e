// swift-tools-version:6.0
import PackageDescription

// The benchmark executables (README.md). A package of its own, as Fuzz/ is, so the app's build and
// tests never compile them; it uses the app's libraries by path. Built by the run scripts with
// `swift build -c release` here, beside `wishlist` built in the main package.
let package = Package(
    name: "WishlistBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Wishlist", path: "..")],
    targets: [
        .executableTarget(name: "page-bench", dependencies: [
            .product(name: "HTTPServer", package: "Wishlist"),
            .product(name: "Mustache", package: "Wishlist"),
        ], path: "page", exclude: ["run"]),
        .executableTarget(name: "http-bench", dependencies: [.product(name: "HTTPServer", package: "Wishlist")],
                          path: "http", exclude: ["run"]),
        .executableTarget(name: "thumbnail-bench", dependencies: [
            .product(name: "Imaging", package: "Wishlist"),
            .product(name: "CVips", package: "Wishlist"),
            .product(name: "CMagic", package: "Wishlist"),
        ], path: "thumbnail", exclude: ["README.md", "run"]),
        .executableTarget(name: "store-bench", dependencies: [
            .product(name: "WishlistCore", package: "Wishlist"),
            .product(name: "Persistence", package: "Wishlist"),
        ], path: "store"),
        .systemLibrary(name: "CLinuxExtras", path: "sse/CLinuxExtras"),
        .executableTarget(name: "sse-bench", dependencies: ["CLinuxExtras"], path: "sse",
                          exclude: ["README.md", "run", "CLinuxExtras"]),
    ],
    swiftLanguageModes: [.v6]
)
