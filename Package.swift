// swift-tools-version: 6.1
import PackageDescription

// appflipd is a Linux service: Glibc, libsystemd, SO_PEERCRED. It declares no Apple platform and refuses
// to build elsewhere rather than pretend to.
#if !os(Linux)
#error("appflipd builds on Linux only (Glibc, libsystemd, SO_PEERCRED)")
#endif

/// The rules the compiler keeps on every target, as Hummingbird 2 does.
let swiftSettings: [SwiftSetting] = [
    // https://github.com/apple/swift-evolution/blob/main/proposals/0335-existential-any.md
    .enableUpcomingFeature("ExistentialAny"),
    // https://github.com/swiftlang/swift-evolution/blob/main/proposals/0444-member-import-visibility.md
    .enableUpcomingFeature("MemberImportVisibility"),
    // https://github.com/swiftlang/swift-evolution/blob/main/proposals/0409-access-level-on-imports.md
    .enableUpcomingFeature("InternalImportsByDefault"),
]

extension Target.Dependency {
    static func nio(_ name: String) -> Target.Dependency { .product(name: name, package: "swift-nio") }
    static let logging: Target.Dependency = .product(name: "Logging", package: "swift-log")
    static let serviceLifecycle: Target.Dependency = .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
    static let httpClient: Target.Dependency = .product(name: "AsyncHTTPClient", package: "async-http-client")
    static let argumentParser: Target.Dependency = .product(name: "ArgumentParser", package: "swift-argument-parser")
    static let subprocess: Target.Dependency = .product(name: "Subprocess", package: "swift-subprocess")
    static let hashTrees: Target.Dependency = .product(name: "HashTreeCollections", package: "swift-collections")
    static let crypto: Target.Dependency = .product(name: "Crypto", package: "swift-crypto")
}

let package = Package(
    name: "appflipd",
    // What users import: the rules (URL, AASA and App Flip validation), the protocol's messages, the client
    // that speaks it, and the testing library that stands a real appflipd up for their own tests.
    products: [
        .library(name: "AppFlipCore", targets: ["AppFlipCore"]),
        .library(name: "AppFlipProtocol", targets: ["AppFlipProtocol"]),
        .library(name: "AppFlipClient", targets: ["AppFlipClient"]),
        .library(name: "AppFlipTesting", targets: ["AppFlipTesting"]),
        .executable(name: "appflip", targets: ["appflip"]),
        .executable(name: "appflipd", targets: ["appflipd"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        // Without its default traits: FullFoundation would link Foundation and its ICU data into appflipd
        // (docs/performance.md, "Footprint"), ConfigurationSupport swift-configuration.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2", traits: []),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // MARK: The pure core: URL rules, AASA matching, App Flip validation and the byte toolkit. No I/O, no
        // clock, no randomness.
        .target(name: "AppFlipCore", dependencies: [.hashTrees, .crypto], swiftSettings: swiftSettings),

        // MARK: Protocol v1 on the wire: Codable messages, error codes, the release version, redaction. No NIO.
        .target(name: "AppFlipProtocol", dependencies: ["AppFlipCore"], swiftSettings: swiftSettings),
        // Protocol v1's line framing, for both ends: on NIOCore alone, so that AppFlipProtocol keeps no NIO.
        .target(name: "AppFlipFraming", dependencies: [.nio("NIOCore")], swiftSettings: swiftSettings),

        // MARK: Every configuration file's one loader and one error, the OAuth server's file among them.
        .target(name: "AppFlipConfiguration", dependencies: ["AppFlipCore"], swiftSettings: swiftSettings),

        // MARK: Every outbound HTTP request but Google's token calls: a partner's hosted association file,
        // fetched as iOS fetches it, and a partner's authorization endpoint, called as the partner app does.
        .target(
            name: "AppFlipHTTPClient",
            dependencies: [
                "AppFlipCore", .httpClient, .logging, .nio("NIOCore"), .nio("NIOHTTP1"), .nio("NIOPosix"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: The NIO Unix-socket server, the app registry, each hop of a handoff, the handlers and the service.
        .target(
            name: "AppFlipDaemon",
            dependencies: [
                "AppFlipConfiguration", "AppFlipCore", "AppFlipFraming", "AppFlipProtocol", .hashTrees,
                .nio("NIOCore"), .nio("NIOPosix"), .nio("NIOConcurrencyHelpers"), .logging, .serviceLifecycle, .subprocess,
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: A NIO client for protocol v1: pipelined requests, live-app registration, the watch stream.
        .target(
            name: "AppFlipClient",
            dependencies: ["AppFlipCore", "AppFlipFraming", "AppFlipProtocol", .nio("NIOCore"), .nio("NIOPosix")],
            swiftSettings: swiftSettings
        ),

        // MARK: The embedded OAuth2 authorization server, on Hummingbird.
        .target(
            name: "AppFlipOAuth",
            dependencies: [
                "AppFlipConfiguration", "AppFlipCore", "AppFlipHTTPClient", .httpClient, .logging, .serviceLifecycle,
                .product(name: "Hummingbird", package: "hummingbird"), .crypto,
                .nio("NIOConcurrencyHelpers"), .nio("NIOCore"), .nio("NIOHTTP1"), .nio("NIOPosix"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: The built-in `appflip` partner-app handler: FlipPolicy, step 3 and the result, in the daemon.
        .target(
            name: "AppFlipPartner",
            dependencies: [
                "AppFlipConfiguration", "AppFlipCore", "AppFlipDaemon", "AppFlipHTTPClient", "AppFlipOAuth", "AppFlipProtocol",
                .httpClient, .logging, .nio("NIOConcurrencyHelpers"), .nio("NIOCore"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: The Google side of App Flip: register as the Google app for its redirect links, send the flip
        // link, take and check the result, exchange and refresh the code at the token endpoint as Google's
        // server does.
        .target(
            name: "AppFlipGoogle",
            dependencies: [
                "AppFlipClient", "AppFlipConfiguration", "AppFlipCore", "AppFlipHTTPClient", "AppFlipProtocol", .httpClient,
                .logging, .nio("NIOConcurrencyHelpers"), .nio("NIOCore"), .nio("NIOHTTP1"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: `appflip audit`: the partner app through appflipd, the authorization and token endpoints over
        // HTTP, the association files and the app's build artifacts, each check judged against its rule (the
        // catalogue is in the core).
        .target(
            name: "AppFlipAudit",
            dependencies: [
                "AppFlipArtifacts", "AppFlipClient", "AppFlipConfiguration", "AppFlipCore", "AppFlipGoogle", "AppFlipHTTPClient",
                "AppFlipProtocol", .httpClient, .logging, .nio("NIOConcurrencyHelpers"), .nio("NIOCore"), .nio("NIOHTTP1"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: The partner's own app, from its build artifacts, read in bounded time and memory (docs/artifacts.md):
        // APK, AAB and Android manifests (Android/), an .ipa, a provisioning profile, a Mach-O executable's code
        // signature, entitlements and Info.plist (Apple/). Zips on ZIPFoundation, the AAB's manifest on
        // swift-protobuf, certificates on swift-certificates and swift-asn1; the binary XML, APK Signing Block and
        // Mach-O code-signature readers are written to their formats.
        .target(
            name: "AppFlipArtifacts",
            dependencies: [
                "AppFlipCore", .crypto, .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"), .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: libsystemd, as the C module that Systemd wraps. Needs `libsystemd-dev` to build.
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        // sd_notify, the watchdog, socket activation and a journald LogHandler.
        .target(name: "Systemd", dependencies: ["AppFlipCore", "CSystemd", .logging, .nio("NIOConcurrencyHelpers")], swiftSettings: swiftSettings),

        // MARK: appflipd, composed once (DaemonComposition), and its command line with systemd.
        .target(
            name: "AppFlipServer",
            dependencies: [
                "AppFlipConfiguration", "AppFlipDaemon", "AppFlipHTTPClient", "AppFlipOAuth", "AppFlipPartner", "AppFlipProtocol",
                "Systemd", .argumentParser, .httpClient, .logging, .serviceLifecycle, .nio("NIOCore"), .nio("NIOPosix"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: Test your app or handler against a real appflipd: appflipd's composition in-process on a
        // temporary socket, or the built `appflipd`, with a partner app and a Google app ready to use.
        .target(
            name: "AppFlipTesting",
            dependencies: [
                "AppFlipClient", "AppFlipConfiguration", "AppFlipCore", "AppFlipDaemon", "AppFlipFraming", "AppFlipGoogle",
                "AppFlipHTTPClient", "AppFlipOAuth", "AppFlipProtocol", "AppFlipServer", .httpClient, .logging, .serviceLifecycle,
                .nio("NIOCore"), .nio("NIOPosix"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: Every `appflip` command, kept out of the executable so that tests can drive them. It talks to
        // a daemon over its socket and to partners over HTTP: no daemon composition, no HTTP server.
        .target(
            name: "AppFlipCLI",
            dependencies: [
                "AppFlipArtifacts", "AppFlipAudit", "AppFlipClient", "AppFlipConfiguration", "AppFlipCore", "AppFlipGoogle",
                "AppFlipHTTPClient", "AppFlipProtocol", .argumentParser, .httpClient, .logging, .nio("NIOCore"), .nio("NIOPosix"),
                .nio("NIOConcurrencyHelpers"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: Thin executables.
        .executableTarget(name: "appflip", dependencies: ["AppFlipCLI", .argumentParser], swiftSettings: swiftSettings),
        .executableTarget(name: "appflipd", dependencies: ["AppFlipServer", .argumentParser], swiftSettings: swiftSettings),
        // A minimal socket-activated service: the fixture that proves the Systemd module under a real systemd.
        .executableTarget(
            name: "systemd-probe",
            dependencies: ["AppFlipFraming", "Systemd", .logging, .nio("NIOCore")],
            swiftSettings: swiftSettings
        ),

        // MARK: Benchmarks: figures held to thresholds, never tests (docs/performance.md).
        // The thresholds of Benchmarks/Thresholds and each benchmark's verdict on what it measured.
        .target(name: "BenchmarkThresholds", path: "Benchmarks/BenchmarkThresholds", swiftSettings: swiftSettings),
        // `appflip-bench`: handoffs through appflipd against raw Unix-socket baselines, and full flips against
        // their parts, with appflipd's composition and the OAuth server in its own process.
        .target(
            name: "AppFlipBench",
            dependencies: [
                "AppFlipAudit", "AppFlipCLI", "AppFlipClient", "AppFlipConfiguration", "AppFlipCore", "AppFlipDaemon", "AppFlipFraming",
                "AppFlipGoogle",
                "AppFlipHTTPClient", "AppFlipOAuth", "AppFlipProtocol", "AppFlipServer", "BenchmarkThresholds", .argumentParser,
                .httpClient, .logging,
                .serviceLifecycle, .nio("NIOCore"), .nio("NIOPosix"), .nio("NIOConcurrencyHelpers"),
            ],
            path: "Benchmarks/AppFlipBench",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "appflip-bench",
            dependencies: ["AppFlipBench", .argumentParser],
            path: "Benchmarks/appflip-bench",
            swiftSettings: swiftSettings
        ),
        // `appflip app inspect` on a generated 200 MB APK and a 200 MB .ipa: time and peak RSS against issue 38's limits,
        // held to Benchmarks/Thresholds/artifacts.json. `swift build -c release --product appflip && swift run -c release
        // ArtifactBenchmark`.
        .executableTarget(
            name: "ArtifactBenchmark",
            dependencies: ["BenchmarkThresholds", .product(name: "ZIPFoundation", package: "ZIPFoundation")],
            path: "Benchmarks/ArtifactBenchmark",
            swiftSettings: swiftSettings
        ),
        // The cost of routing one URL with 1, 100 and 10,000 registered apps: `swift run -c release MatchBenchmark`.
        .executableTarget(
            name: "MatchBenchmark",
            dependencies: ["AppFlipCore", "BenchmarkThresholds"],
            path: "Benchmarks/MatchBenchmark",
            swiftSettings: swiftSettings
        ),
        // Prints the CPU cost of the per-handoff log record: `swift run -c release LogBenchmark`.
        .executableTarget(
            name: "LogBenchmark",
            dependencies: ["Systemd", .logging],
            path: "Benchmarks/LogBenchmark",
            swiftSettings: swiftSettings
        ),

        // MARK: Tests, one target per module, and what they share (none of it a product). A target whose tests run
        // one of this package's executables depends on it.
        // Which tests run (the slow-test switch), the one way to wait for a condition and the one way to run a
        // program: this package's built `appflip` and `appflipd`, a fixture's Python.
        .target(
            name: "AppFlipTestSupport",
            dependencies: ["AppFlipClient", "AppFlipTesting", .subprocess, .product(name: "SystemPackage", package: "swift-system")],
            path: "Tests/AppFlipTestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AppFlipTestSupportTests",
            dependencies: ["appflip", "appflipd", "AppFlipClient", "AppFlipProtocol", "AppFlipTestSupport", "AppFlipTesting"],
            swiftSettings: swiftSettings
        ),
        // Third-party programs the interop tests run against, pinned from PyPI, each with its Python beside it:
        // the real-server matrix's OAuth2 servers and django-oauth-toolkit, the OAuth clients authlib and
        // requests-oauthlib, and junitparser.
        .target(
            name: "ThirdPartyFixtures",
            dependencies: ["AppFlipCore", "AppFlipTestSupport", .httpClient, .nio("NIOCore"), .nio("NIOHTTP1")],
            path: "Tests/ThirdPartyFixtures",
            exclude: ["django-oauth-toolkit", "junit", "oauth-clients", "oauth-servers", "pinned-venv.sh"],
            swiftSettings: swiftSettings
        ),
        // Reference AASA corpora, shared by the library's tests and the command line's.
        .target(
            name: "AASACorpora",
            dependencies: ["AppFlipCore"],
            path: "Tests/AASACorpora",
            resources: [.copy("aasa-conformance"), .copy("sttech-swcutil")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AppFlipCoreTests",
            dependencies: ["AASACorpora", "AppFlipCore", .product(name: "PropertyBased", package: "swift-property-based")],
            resources: [.copy("Corpora")],
            swiftSettings: swiftSettings
        ),
        // Real HTTPS on 127.0.0.1: a certificate authority made in the test, NIO servers, the real AASA corpus, and
        // the hostile-server battery against every outbound request's bounds.
        .testTarget(
            name: "AppFlipHTTPClientTests",
            dependencies: [
                "appflip",
                "AppFlipTestSupport",
                "AppFlipAudit", "AppFlipCore", "AppFlipGoogle", "AppFlipHTTPClient", "AppFlipTesting", .httpClient, .logging,
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"), .crypto,
                .nio("NIOCore"), .nio("NIOPosix"), .nio("NIOHTTP1"), .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            resources: [.copy("Corpora")],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "AppFlipProtocolTests", dependencies: ["AppFlipCore", "AppFlipProtocol"], swiftSettings: swiftSettings),
        .testTarget(
            name: "AppFlipFramingTests",
            dependencies: ["AppFlipFraming", .nio("NIOCore"), .nio("NIOTestUtils")],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "AppFlipConfigurationTests", dependencies: ["AppFlipConfiguration"], swiftSettings: swiftSettings),
        // The daemon's tests run `appflipd`, and the `appflip` beside it that reads the artifacts app files name.
        .testTarget(
            name: "AppFlipDaemonTests",
            dependencies: [
                "appflip", "appflipd", "AppFlipTestSupport",
                "AppFlipClient", "AppFlipConfiguration", "AppFlipCore", "AppFlipDaemon", "AppFlipProtocol", "AppFlipTesting",
                .logging,
                .product(name: "InMemoryLogging", package: "swift-log"), .nio("NIOConcurrencyHelpers"), .nio("NIOCore"),
                .nio("NIOEmbedded"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AppFlipClientTests",
            dependencies: [
                "appflipd",
                "AppFlipTestSupport",
                "AppFlipClient", "AppFlipDaemon", "AppFlipProtocol", "AppFlipTesting", .nio("NIOConcurrencyHelpers"), .nio("NIOCore"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AppFlipOAuthTests",
            dependencies: [
                "AppFlipTestSupport",
                "AppFlipConfiguration", "AppFlipCore", "AppFlipGoogle", "AppFlipHTTPClient", "AppFlipOAuth", "AppFlipTesting",
                "ThirdPartyFixtures",
                .httpClient, .logging, .serviceLifecycle,
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "HummingbirdTesting", package: "hummingbird"), .nio("NIOCore"),
                .nio("NIOHTTP1"), .nio("NIOPosix"),
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AppFlipPartnerTests",
            dependencies: [
                "appflipd",
                "AppFlipTestSupport",
                "AppFlipClient", "AppFlipConfiguration", "AppFlipCore", "AppFlipDaemon", "AppFlipGoogle", "AppFlipHTTPClient", "AppFlipOAuth",
                "AppFlipProtocol", "AppFlipTesting", "ThirdPartyFixtures", .httpClient, .logging, .nio("NIOCore"), .nio("NIOHTTP1"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AppFlipGoogleTests",
            dependencies: [
                "AppFlipClient", "AppFlipConfiguration", "AppFlipCore", "AppFlipGoogle", "AppFlipHTTPClient", "AppFlipOAuth",
                "AppFlipProtocol", "AppFlipTesting", .logging, .nio("NIOCore"), .nio("NIOPosix"),
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AppFlipServerTests",
            dependencies: [
                "appflipd",
                "AppFlipTestSupport",
                "AppFlipClient", "AppFlipConfiguration", "AppFlipDaemon", "AppFlipProtocol", "AppFlipServer", "AppFlipTesting",
                "Systemd", .logging,
                .nio("NIOCore"), .serviceLifecycle,
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AppFlipCLITests",
            dependencies: [
                "appflipd",
                "AASACorpora", "AppFlipTestSupport", "appflip",
                "AppFlipCLI", "AppFlipClient", "AppFlipConfiguration", "AppFlipCore", "AppFlipDaemon", "AppFlipOAuth", "AppFlipProtocol",
                "AppFlipTesting", "ThirdPartyFixtures",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AppFlipBenchTests",
            dependencies: [
                "appflip-bench",
                "AppFlipBench", "AppFlipClient", "AppFlipCore", "AppFlipProtocol", "AppFlipTestSupport", "AppFlipTesting", "BenchmarkThresholds",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AppFlipAuditTests",
            dependencies: [
                "AppFlipTestSupport",
                "AppFlipAudit", "AppFlipClient", "AppFlipConfiguration", "AppFlipCore", "AppFlipGoogle", "AppFlipHTTPClient",
                "AppFlipOAuth", "AppFlipProtocol", "AppFlipTesting", "ThirdPartyFixtures", .httpClient, .logging, .serviceLifecycle,
                .nio("NIOConcurrencyHelpers"), .nio("NIOCore"), .nio("NIOHTTP1"), .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),
        // The audit against independent OAuth2 server libraries from PyPI, each verdict against a hand-verified table
        // (docs/testing.md, "The real-server matrix").
        .testTarget(
            name: "OAuthMatrixTests",
            dependencies: ["appflip", "AppFlipTestSupport", "AppFlipCore", "AppFlipTesting", "ThirdPartyFixtures"],
            resources: [.copy("Expected")],
            swiftSettings: swiftSettings
        ),
        // The artifact readers against the tools that read the same files (aapt and apksigner from Debian, openssl,
        // llvm-objdump, Info-ZIP) on artifacts the tests build (Tests/AndroidArtifacts, Tests/AppleArtifacts), the
        // hostile-artifact tables, and `appflip app inspect`.
        .testTarget(
            name: "AppFlipArtifactsTests",
            dependencies: [
                "appflip", "AppFlipArtifacts", "AppFlipCore", "AppFlipTestSupport", .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "SystemdTests", dependencies: ["Systemd", .logging], swiftSettings: swiftSettings),
    ]
)

// MARK: libFuzzer targets, one executable per input format (Tests/Fuzz, docs/testing.md "Fuzzing"). Declared
// only when APPFLIP_FUZZ=1, which `scripts/fuzz` sets with its own scratch path and `-sanitize=fuzzer`, so that
// the normal build, its tests and CI never compile them. Each defines `LLVMFuzzerTestOneInput` and hands it to
// libFuzzer's driver (FuzzSupport).
if Context.environment["APPFLIP_FUZZ"] == "1" {
    let fuzzTargets: [(name: String, dependencies: [Target.Dependency])] = [
        ("FuzzLineFramer", ["AppFlipFraming", .nio("NIOCore")]),
        ("FuzzRequest", ["AppFlipCore", "AppFlipProtocol"]),
        ("FuzzServerMessage", ["AppFlipCore", "AppFlipProtocol"]),
        ("FuzzAASA", ["AppFlipCore"]),
        ("FuzzRawURL", ["AppFlipCore"]),
        ("FuzzFlipLink", ["AppFlipCore"]),
        ("FuzzPercentForm", ["AppFlipCore"]),
        ("FuzzAXML", ["AppFlipArtifacts", "AppFlipCore"]),
        ("FuzzSigningBlock", ["AppFlipArtifacts", "AppFlipCore"]),
        ("FuzzResourceTable", ["AppFlipArtifacts", "AppFlipCore"]),
        ("FuzzAABManifest", ["AppFlipArtifacts", "AppFlipCore"]),
        ("FuzzMachO", ["AppFlipArtifacts"]),
        ("FuzzProvisioningProfile", ["AppFlipArtifacts", "AppFlipCore"]),
        ("FuzzPropertyList", ["AppFlipArtifacts"]),
        ("FuzzIPA", ["AppFlipArtifacts"]),
    ]
    package.targets += fuzzTargets.map { target in
        .executableTarget(
            name: target.name,
            dependencies: target.dependencies + ["FuzzSupport"],
            path: "Tests/Fuzz/\(target.name)",
            swiftSettings: swiftSettings
        )
    }
    package.targets += [
        .target(name: "CLibFuzzer", path: "Tests/Fuzz/CLibFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["CLibFuzzer"], path: "Tests/Fuzz/FuzzSupport", swiftSettings: swiftSettings),
    ]
}
