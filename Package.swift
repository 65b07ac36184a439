// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Zinc",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "Zinc", targets: ["Zinc"]),
        .executable(name: "zinc", targets: ["ZincCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // System libraries: the distro's zlib and OpenSSL libcrypto, nothing vendored.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        .systemLibrary(
            name: "CLibCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl"])]
        ),
        // All behaviour lives in the library so other Swift programs can embed Zinc.
        .target(
            name: "Zinc",
            dependencies: [
                "CZlib",
                "CLibCrypto",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The `zinc` command: argument parsing and printing only.
        .executableTarget(
            name: "ZincCLI",
            dependencies: [
                "Zinc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "ZincTests", dependencies: ["Zinc"]),
        .testTarget(name: "ZincCLITests", dependencies: ["Zinc", "ZincCLI"]),
    ],
    swiftLanguageModes: [.v6]
)
