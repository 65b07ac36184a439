// swift-tools-version:6.1
import PackageDescription

// `ZINC_PORTABLE=1` (`make portable-check`) builds the configuration of an iOS app on
// this Linux machine: `Zinc` on CryptoKit's API through swift-crypto instead of OpenSSL,
// and `ZincClient` without libcurl. Normal builds never fetch or compile swift-crypto.
let portable = Context.environment["ZINC_PORTABLE"] == "1"

// `ZincFormat`'s hashing and signing: OpenSSL's libcrypto on Linux (its SHA-1 hashes assets
// fastest), CryptoKit on Apple systems, and swift-crypto (the same API) when portable.
// `ZINC_OPENSSL` picks the code, set exactly where libcrypto is a dependency: whether a
// module can be imported is no test, since SwiftPM lets a target see every module built.
let cryptoDependencies: [Target.Dependency] =
    portable
    ? [.product(name: "Crypto", package: "swift-crypto")]
    : [.target(name: "CLibCrypto", condition: .when(platforms: [.linux]))]
let cryptoSettings: [SwiftSetting] = portable ? [] : [.define("ZINC_OPENSSL", .when(platforms: [.linux]))]

// libcurl, the client's default HTTP transport where the system has it (Linux, macOS);
// iOS has none, so there apps fetch through ZincURLSession. `ZINC_LIBCURL` likewise.
let clientCurlDependencies: [Target.Dependency] =
    portable ? [] : [.target(name: "ZincCurl", condition: .when(platforms: [.linux, .macOS]))]
let clientCurlSettings: [SwiftSetting] = portable ? [] : [.define("ZINC_LIBCURL", .when(platforms: [.linux, .macOS]))]

let package = Package(
    name: "Zinc",
    // macOS 15 / iOS 18: the standard library's Synchronization (Mutex, Atomic), which
    // replaces Foundation's locks so that `zinc` links no ICU data.
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "Zinc", targets: ["Zinc"]),
        .library(name: "ZincFormat", targets: ["ZincFormat"]),
        .library(name: "ZincClient", targets: ["ZincClient"]),
        .library(name: "ZincServer", targets: ["ZincServer"]),
        .library(name: "ZincURLSession", targets: ["ZincURLSession"]),
        .executable(name: "zinc", targets: ["ZincCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // `swift package generate-documentation`: a command plugin, built only when run.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ] + (portable ? [.package(url: "https://github.com/apple/swift-crypto", from: "4.5.2")] : []),
    targets: [
        // System libraries: the distro's zlib and OpenSSL libcrypto (Linux only, see
        // `cryptoDependencies`), nothing vendored.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        .systemLibrary(
            name: "CLibCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // glibc's mallopt, for the `zinc` command's allocator settings (Linux only).
        .systemLibrary(name: "CGlibcMalloc"),
        // glibc's renameat2, to swap a rebuilt folder with the one in use (Linux only).
        .systemLibrary(name: "CGlibcRename"),
        // libcurl for the client's HTTP fetches, loaded at run time by the first one (see
        // its header): no other command pays for loading it. Needs libcurl's headers to build.
        .target(name: "CLibCurl", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // What every reader of a catalog shares (the publisher and the client alike):
        // manifest, index, object format, chunk lists, signatures, digests, codecs, errors.
        // What every reader of a catalog shares (manifest, index, objects, chunk lists,
        // signatures, digests, codecs, errors): both sides import it, as NIOCore for SwiftNIO.
        .target(name: "ZincFormat", dependencies: ["CZlib"] + cryptoDependencies, swiftSettings: cryptoSettings),
        // All behaviour lives in the library so other Swift programs can embed Zinc.
        .target(
            name: "Zinc",
            dependencies: [
                "ZincFormat", "CZlib", .product(name: "Logging", package: "swift-log"),
                .target(name: "CGlibcRename", condition: .when(platforms: [.linux])),
            ],
            // The crash-injection hook the kill tests drive (FaultInjection) exists in
            // debug builds only: no release binary or embedding app carries it.
            swiftSettings: [.define("ZINC_FAULT_INJECTION", .when(configuration: .debug))]
        ),
        // `zinc serve`: a static HTTP server with CDN semantics. It knows nothing of
        // catalogs beyond file names, so it depends on SwiftNIO and the shared cache policy only.
        .target(
            name: "ZincServer",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                "ZincHTTP",
            ]
        ),
        // The read-only web pages of `zinc serve` under /~zinc/, plugged into ZincServer's
        // dynamic routes: HTML from an escaping builder of its own (no template library:
        // those at hand import all of Foundation).
        .target(name: "ZincBrowser", dependencies: ["Zinc", "ZincServer"]),
        // What every HTTP side shares, in Swift alone: response heads, cache policy.
        .target(name: "ZincHTTP"),
        // HTTP over libcurl, shared by the client's default transport and the S3 backend.
        .target(name: "ZincCurl", dependencies: ["CLibCurl", "ZincHTTP"]),
        // Catalogs in S3-compatible object stores (`s3://BUCKET/PREFIX`).
        .target(name: "ZincS3", dependencies: ["Zinc", "ZincHTTP", "ZincCurl", "ZincClient"]),
        // The client side: keeps a local repo of bundles in sync with remote catalogs.
        .target(
            name: "ZincClient", dependencies: ["ZincFormat", "Zinc", "ZincHTTP"] + clientCurlDependencies,
            swiftSettings: clientCurlSettings),
        // The client's HTTP through URLSession, for apps (FoundationNetworking on Linux).
        // Never linked into `zinc`: it imports all of Foundation.
        .target(name: "ZincURLSession", dependencies: ["Zinc", "ZincClient"]),
        // The `zinc` command: argument parsing and printing only.
        .executableTarget(
            name: "ZincCLI",
            dependencies: [
                "Zinc",
                "ZincClient",
                "ZincServer",
                "ZincBrowser",
                "ZincS3",
                .target(name: "CGlibcMalloc", condition: .when(platforms: [.linux])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // A small program embedding the libraries (publish, then sync a client repo). Like
        // the next, compiled without `package` access: public API only, as an app outside
        // this package sees it.
        .executableTarget(
            name: "EmbeddingExample", dependencies: ["Zinc", "ZincClient"], path: "Examples/Embedding", packageAccess: false),
        // An app's use of the client's async API: seed, plan, sync with progress and Ctrl-C;
        // it imports ZincFormat and ZincClient alone, as an app does (the demo publishes with `zinc`).
        .executableTarget(
            name: "ClientAppExample", dependencies: ["ZincFormat", "ZincClient"], path: "Examples/ClientApp", packageAccess: false),
        // An iOS-style app's model (LessonStore), written from docs/CLIENT.md: URLs, one
        // error type, a Foundation.Progress; `make portable-check` builds it as iOS would.
        .executableTarget(
            name: "LessonsAppExample", dependencies: ["ZincClient", "ZincURLSession"], path: "Examples/LessonsApp",
            packageAccess: false),
        // Every parser of outside bytes as a libFuzzer target (`make fuzz`); built normally,
        // it replays inputs through one of them.
        .systemLibrary(name: "CFuzzer", path: "Fuzz/CFuzzer"),
        .executableTarget(
            name: "ZincFuzz", dependencies: ["Zinc", "ZincClient", "ZincServer", "ZincS3", "ZincHTTP", "CFuzzer"], path: "Fuzz/ZincFuzz"),
        // Helpers shared by the test targets: temporary trees, running the built binary.
        .target(name: "ZincTestSupport", dependencies: ["Zinc", "ZincS3", "ZincCurl"], path: "Tests/ZincTestSupport"),
        .testTarget(name: "ZincTests", dependencies: ["Zinc", "ZincTestSupport"]),
        .testTarget(name: "ZincCLITests", dependencies: ["Zinc", "ZincCLI", "ZincTestSupport"]),
        .testTarget(name: "ZincServerTests", dependencies: ["ZincServer", "ZincHTTP", "ZincTestSupport"]),
        .testTarget(name: "ZincBrowserTests", dependencies: ["ZincBrowser", "Zinc", "ZincServer", "ZincCLI", "ZincTestSupport"]),
        .testTarget(name: "ZincS3Tests", dependencies: ["ZincS3", "ZincClient", "Zinc", "ZincTestSupport"]),
        // Runs each HTTP test once per transport the client has (`ZINC_LIBCURL`).
        .testTarget(
            name: "ZincClientTests", dependencies: ["ZincClient", "ZincURLSession", "ZincServer", "ZincHTTP", "Zinc", "ZincTestSupport"],
            swiftSettings: clientCurlSettings),
    ],
    swiftLanguageModes: [.v6]
)
