// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "appflipd",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "AppFlipCore", targets: ["AppFlipCore"]),
        .executable(name: "appflip", targets: ["appflip"]),
        .library(name: "Systemd", targets: ["Systemd"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
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
            ]
        ),
        .executableTarget(name: "appflip", dependencies: ["AppFlipCLI"]),
        .testTarget(
            name: "AppFlipCoreTests",
            dependencies: [
                "AppFlipCore",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            resources: [.copy("Corpora")]
        ),
        // libsystemd, as the C module that Systemd wraps. Needs `libsystemd-dev` to build.
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
        // A minimal socket-activated service: the fixture that proves the Systemd module under a real systemd.
        .executableTarget(
            name: "systemd-probe",
            dependencies: [
                "Systemd",
                .product(name: "Logging", package: "swift-log"),
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
