// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "appflipd",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "AppFlipCore", targets: ["AppFlipCore"]),
        .library(name: "AppFlipProtocol", targets: ["AppFlipProtocol"]),
        .library(name: "AppFlipDaemon", targets: ["AppFlipDaemon"]),
        .library(name: "AppFlipClient", targets: ["AppFlipClient"]),
        .library(name: "AppFlipTesting", targets: ["AppFlipTesting"]),
        .executable(name: "appflip", targets: ["appflip"]),
        .executable(name: "appflipd", targets: ["appflipd"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2", traits: []),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    ],
    targets: [
        // The pure core: URL rules, AASA matching and App Flip validation. No I/O, no clock, no randomness.
        .target(name: "AppFlipCore"),
        // Every `appflip` command, kept out of the executable so that tests can drive them.
        .target(
            name: "AppFlipCLI",
            dependencies: [
                "AppFlipCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                "AppFlipProtocol",
                "AppFlipClient",
                "AppFlipDaemon",
                "AppFlipTesting",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(name: "appflip", dependencies: ["AppFlipCLI", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .testTarget(
            name: "AppFlipCoreTests",
            dependencies: [
                "AppFlipCore",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            resources: [.copy("Corpora")]
        ),
        // Protocol v1 on the wire: Codable messages, error codes and framing limits. No NIO, no I/O.
        .target(name: "AppFlipProtocol"),
        // The NIO Unix-socket server, the app registry, the handlers, config loading and the service.
        .target(
            name: "AppFlipDaemon",
            dependencies: [
                "AppFlipCore",
                "AppFlipProtocol",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // A NIO client for protocol v1: pipelined requests, live-app registration, the watch stream.
        .target(
            name: "AppFlipClient",
            dependencies: [
                "AppFlipProtocol",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // Start a real daemon on a temporary socket (in-process or the built `appflipd`) and connect to it.
        .target(
            name: "AppFlipTesting",
            dependencies: [
                "AppFlipDaemon",
                "AppFlipClient",
                "AppFlipProtocol",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Subprocess", package: "swift-subprocess"),
            ]
        ),
        .executableTarget(
            name: "appflipd",
            dependencies: [
                "AppFlipDaemon",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "AppFlipProtocolTests", dependencies: ["AppFlipProtocol"]),
        .testTarget(
            name: "AppFlipDaemonTests",
            dependencies: [
                "AppFlipTesting",
                "AppFlipClient",
                "AppFlipProtocol",
                "AppFlipDaemon",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
    ]
)
