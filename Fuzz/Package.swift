// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for the code that reads untrusted bytes. A package of its own so the app's
// normal build and tests never see the fuzzer flags; `make fuzz` builds it with
// `--sanitize fuzzer --sanitize address` and runs each target for a bounded time
// (docs/RELIABILITY.md).
let package = Package(
    name: "WishlistFuzz",
    dependencies: [.package(name: "Wishlist", path: "..")],
    targets: [
        .executableTarget(name: "fuzz-mustache", dependencies: [.product(name: "Mustache", package: "Wishlist")]),
        .executableTarget(name: "fuzz-http-fields", dependencies: [.product(name: "HTTPServer", package: "Wishlist")]),
        .executableTarget(name: "fuzz-http-server", dependencies: [.product(name: "HTTPServer", package: "Wishlist")]),
        .executableTarget(name: "fuzz-archive", dependencies: [
            .product(name: "WishlistCore", package: "Wishlist"),
            .product(name: "Persistence", package: "Wishlist"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
