// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "appflipd",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "AppFlipCore", targets: ["AppFlipCore"]),
        .library(name: "AppFlipProtocol", targets: ["AppFlipProtocol"]),
        .library(name: "AppFlipConfiguration", targets: ["AppFlipConfiguration"]),
        .library(name: "AppFlipDaemon", targets: ["AppFlipDaemon"]),
        .library(name: "AppFlipClient", targets: ["AppFlipClient"]),
        .library(name: "AppFlipTesting", targets: ["AppFlipTesting"]),
        .library(name: "AppFlipOAuth", targets: ["AppFlipOAuth"]),
        .library(name: "Systemd", targets: ["Systemd"]),
        .library(name: "AppFlipServer", targets: ["AppFlipServer"]),
        .library(name: "AppFlipPartner", targets: ["AppFlipPartner"]),
        .library(name: "AppFlipGoogle", targets: ["AppFlipGoogle"]),
        .executable(name: "appflip", targets: ["appflip"]),
        .executable(name: "appflipd", targets: ["appflipd"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2", traits: []),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // MARK: The pure core: URL rules, AASA matching and App Flip validation. No I/O, no clock, no randomness.
        .target(
            name: "AppFlipCore",
            dependencies: [.product(name: "HashTreeCollections", package: "swift-collections")]
        ),

        // MARK: Protocol v1 on the wire: Codable messages, error codes and framing limits. No NIO, no I/O.
        .target(name: "AppFlipProtocol", dependencies: ["AppFlipCore"]),
        // Protocol v1's line framing, for both ends: on NIOCore alone, so that AppFlipProtocol keeps no NIO.
        .target(name: "AppFlipFraming", dependencies: [.product(name: "NIOCore", package: "swift-nio")]),

        // MARK: Every configuration file's one loader and one error: bounded reads, strict camelCase keys.
        .target(name: "AppFlipConfiguration"),

        // MARK: The NIO Unix-socket server, the app registry, the handlers, config loading and the service.
        .target(
            name: "AppFlipDaemon",
            dependencies: [
                "AppFlipConfiguration",
                "AppFlipCore",
                "AppFlipFraming",
                "AppFlipProtocol",
                .product(name: "HashTreeCollections", package: "swift-collections"),
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

        // MARK: A NIO client for protocol v1: pipelined requests, live-app registration, the watch stream.
        .target(
            name: "AppFlipClient",
            dependencies: [
                "AppFlipFraming",
                "AppFlipProtocol",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),

        // MARK: Start a real daemon on a temporary socket (appflipd's composition in-process, or the built
        // `appflipd`) and connect to it.
        .target(
            name: "AppFlipTesting",
            dependencies: [
                "AppFlipCore",
                "AppFlipDaemon",
                "AppFlipClient",
                "AppFlipGoogle",
                "AppFlipOAuth",
                "AppFlipFraming",
                "AppFlipProtocol",
                "AppFlipServer",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Subprocess", package: "swift-subprocess"),
            ]
        ),

        // MARK: App Flip's HTTP half: the embedded OAuth2 authorization server, the remote authorization
        // endpoint caller (step 3) and Google's token exchange (step 4).
        .target(
            name: "AppFlipOAuth",
            dependencies: [
                "AppFlipConfiguration",
                "AppFlipCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),

        // MARK: The built-in `appflip` partner-app handler: FlipPolicy, step 3 and the result, in the daemon.
        .target(
            name: "AppFlipPartner",
            dependencies: [
                "AppFlipConfiguration",
                "AppFlipCore",
                "AppFlipDaemon",
                "AppFlipProtocol",
                "AppFlipOAuth",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),

        // MARK: libsystemd, as the C module that Systemd wraps. Needs `libsystemd-dev` to build.
        .systemLibrary(
            name: "CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        // sd_notify, the watchdog, socket activation and a journald LogHandler.
        .target(
            name: "Systemd",
            dependencies: [
                "CSystemd",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // MARK: The Google side of App Flip: register as the Google app for its redirect links, send the flip
        // link, take and check the result, exchange and refresh the code as Google's server does.
        .target(
            name: "AppFlipGoogle",
            dependencies: [
                "AppFlipCore",
                "AppFlipProtocol",
                "AppFlipClient",
                "AppFlipOAuth",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),

        // MARK: Every `appflip` command, kept out of the executable so that tests can drive them. `bench` runs
        // appflipd's composition in-process, hence AppFlipServer and AppFlipDaemon's configuration type.
        .target(
            name: "AppFlipCLI",
            dependencies: [
                "AppFlipCore",
                "AppFlipProtocol",
                "AppFlipClient",
                "AppFlipGoogle",
                "AppFlipOAuth",
                "AppFlipServer",
                "AppFlipDaemon",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),

        // MARK: The appflipd process: the daemon, the embedded OAuth server and systemd, composed.
        .target(
            name: "AppFlipServer",
            dependencies: [
                "AppFlipConfiguration",
                "AppFlipCore",
                "AppFlipDaemon",
                "AppFlipOAuth",
                "AppFlipPartner",
                "AppFlipProtocol",
                "Systemd",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),

        // MARK: Thin executables.
        .executableTarget(name: "appflip", dependencies: ["AppFlipCLI"]),
        .executableTarget(name: "appflipd", dependencies: ["AppFlipServer"]),
        // A minimal socket-activated service: the fixture that proves the Systemd module under a real systemd.
        .executableTarget(
            name: "systemd-probe",
            dependencies: [
                "Systemd",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Prints the cost of routing one URL with 1, 100 and 10,000 registered apps: `swift run -c release MatchBenchmark`.
        .executableTarget(name: "MatchBenchmark", dependencies: ["AppFlipCore"], path: "Benchmarks/MatchBenchmark"),

        // MARK: Tests.
        .testTarget(
            name: "AppFlipCoreTests",
            dependencies: [
                "AppFlipCore",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            resources: [.copy("Corpora")]
        ),
        .testTarget(name: "AppFlipProtocolTests", dependencies: ["AppFlipProtocol"]),
        .testTarget(name: "AppFlipConfigurationTests", dependencies: ["AppFlipConfiguration"]),
        .testTarget(
            name: "AppFlipFramingTests",
            dependencies: [
                "AppFlipFraming",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOTestUtils", package: "swift-nio"),
            ]
        ),
        // MARK: django-oauth-toolkit for the interop tests of AppFlipOAuthTests and AppFlipPartnerTests.
        .target(
            name: "DjangoOAuthFixture",
            dependencies: [
                "AppFlipCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Tests/DjangoOAuthFixture"
        ),
        .testTarget(
            name: "AppFlipDaemonTests",
            dependencies: [
                "AppFlipConfiguration",
                "AppFlipTesting",
                "AppFlipClient",
                "AppFlipProtocol",
                "AppFlipDaemon",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "AppFlipOAuthTests",
            dependencies: [
                "AppFlipConfiguration",
                "AppFlipOAuth",
                "AppFlipCore",
                "DjangoOAuthFixture",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "AppFlipPartnerTests",
            dependencies: [
                "AppFlipConfiguration",
                "AppFlipCore",
                "AppFlipDaemon",
                "AppFlipOAuth",
                "AppFlipProtocol",
                "AppFlipTesting",
                "DjangoOAuthFixture",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .testTarget(
            name: "AppFlipClientTests",
            dependencies: [
                "AppFlipClient",
                "AppFlipDaemon",
                "AppFlipProtocol",
                "AppFlipTesting",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "AppFlipGoogleTests",
            dependencies: [
                "AppFlipClient",
                "AppFlipCore",
                "AppFlipGoogle",
                "AppFlipProtocol",
                "AppFlipTesting",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "AppFlipServerTests",
            dependencies: [
                "AppFlipConfiguration",
                "AppFlipClient",
                "AppFlipDaemon",
                "AppFlipProtocol",
                "AppFlipServer",
                "AppFlipTesting",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "AppFlipCLITests",
            dependencies: [
                "AppFlipClient",
                "AppFlipCore",
                "AppFlipProtocol",
                "AppFlipTesting",
                "DjangoOAuthFixture",
            ]
        ),
        .testTarget(
            name: "SystemdTests",
            dependencies: [
                "Systemd",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ]
)
