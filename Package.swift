// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "appflipd",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "AppFlipCore", targets: ["AppFlipCore"]),
        .executable(name: "appflip", targets: ["appflip"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    ],
    targets: [
        // The pure core: URL rules, AASA matching and App Flip validation. No I/O, no clock, no randomness.
        .target(
            name: "AppFlipCore",
            dependencies: [.product(name: "HashTreeCollections", package: "swift-collections")]
        ),
        // Every `appflip` command, kept out of the executable so that tests can drive them.
        .target(
            name: "AppFlipCLI",
            dependencies: [
                "AppFlipCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "appflip", dependencies: ["AppFlipCLI"]),
        // Prints the cost of routing one URL with 1, 100 and 10,000 registered apps: `swift run -c release MatchBenchmark`.
        .executableTarget(name: "MatchBenchmark", dependencies: ["AppFlipCore"], path: "Benchmarks/MatchBenchmark"),
        .testTarget(
            name: "AppFlipCoreTests",
            dependencies: [
                "AppFlipCore",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            resources: [.copy("Corpora")]
        ),
    ]
)
