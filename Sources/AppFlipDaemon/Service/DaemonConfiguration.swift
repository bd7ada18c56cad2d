public import AppFlipConfiguration
import AppFlipCore
public import AppFlipProtocol
import FoundationEssentials
import Glibc
import NIOCore

/// `appflipd.json`: the daemon's settings. Every field is optional; `docs/configuration.md` documents each.
///
/// Loading is strict: an unknown key or an out-of-range value refuses the whole file, because a typo in a
/// security setting must not silently fall back to a default.
public struct DaemonConfiguration: Sendable, Hashable {
    /// The socket path; `nil` picks the default for the user (`SocketPath.defaultPath(environment:uid:)`).
    public var socket: String?
    /// The backlog passed to listen(2): connections the kernel queues while the daemon is busy or
    /// restarting. NIO adopts a socket systemd passes with a backlog of 128; the daemon then calls listen()
    /// again with this value, so it must equal the `.socket` unit's `Backlog=` or it silently replaces it.
    public var listenBacklog: Int = 1024
    /// The directory of static app files, `*.json`; relative paths are relative to the config file.
    public var appsDirectory: String?
    /// The longest request line, in bytes, newline excluded, the daemon reads; a longer one is refused with
    /// `line_too_long` and closes the connection.
    public var maxLineBytes: Int = FrameLimits.defaultMaxLineBytes
    /// Connections open at once, and per peer uid; more are refused with `too_many_connections`. The total
    /// stays under the 1024 file descriptors a service gets by default.
    public var maxConnections: Int = 512
    /// The per-uid share of ``maxConnections``, so that one user cannot starve the others.
    public var maxConnectionsPerUID: Int = 256
    /// The last connection slots, kept for uids with fewer than ``reservedConnectionsPerUID`` connections
    /// open, so that one or two uids at ``maxConnectionsPerUID`` cannot take every slot. `nil`: an eighth
    /// of ``maxConnections`` (64 of the default 512); see ``reservedConnectionsInEffect``.
    public var reservedConnections: Int?
    /// A uid with this many connections open or more gets none of the ``reservedConnections``.
    public var reservedConnectionsPerUID: Int = 4
    /// How long a new connection has to complete `hello`; then it gets `hello_timeout` and is closed.
    public var helloTimeoutSeconds: Double = 10
    /// How long a connection may sit with no request in flight, not a live app, not watching, and no whole
    /// line read (a partial line does not count); then it gets `idle_timeout` and is closed. 0 turns it off.
    public var idleTimeoutSeconds: Double = 300
    /// Requests one connection may have in flight; more are refused with `too_many_requests`.
    public var maxInFlightPerConnection: Int = 1024
    /// How long a live app has to answer an `activity`.
    public var liveAppTimeoutSeconds: Double = 10
    /// Handoffs pushed to one live app and not yet answered; one more fails at once with `handler_failed`.
    public var maxPendingPerLiveApp: Int = 1024
    /// The `exec` time limit for app files that do not set their own.
    public var execTimeoutSeconds: Double = 10
    /// How long a stopping daemon waits for in-flight handoffs before closing connections.
    public var shutdownGraceSeconds: Double = 5
    /// How many times a URL opened by a handler may be handed on (hop 0 is the `open` request).
    public var maxHops: Int = 4
    /// How many URLs one handler may open per activity.
    public var maxOpenedURLs: Int = 16
    /// Who may register live apps and who may override other owners' claims.
    public var claimPolicy = ClaimPolicy()
    /// The event loop threads that serve the socket; `nil`: one fewer than the CPUs, at least one (see
    /// ``eventLoopsInEffect``).
    public var eventLoops: Int?
    /// The link dispatcher an `open` without `options.platform` emulates: iOS's by default, as before
    /// Android routing existed.
    public var platform: Platform = .ios
    /// The Android device the daemon plays: which verifier decided the hosts, and which release applies it.
    public var android = AndroidSettings()
    /// The `appflip` executable that reads the artifacts app files name (`appflip app inspect --json`); `nil`:
    /// the `appflip` beside the daemon's own executable (see ``appflipPathInEffect``). Relative paths are
    /// relative to the config file.
    public var appflipPath: String?
    /// How long `appflip app inspect` may take over one artifact; then it is killed and its app refused.
    public var artifactTimeoutSeconds: Double = 10

    /// The defaults, as a daemon with no `appflipd.json` runs.
    public init() {}

    /// ``reservedConnections``, or its default: an eighth of ``maxConnections``.
    public var reservedConnectionsInEffect: Int { reservedConnections ?? maxConnections / 8 }

    /// ``eventLoops``, or its default: one fewer than the CPUs (`System.coreCount`, which counts a cgroup's
    /// CPU quota), at least one. The CPU left over runs the log writer, which formats and writes every
    /// handoff's record; with one event loop a live-app handoff never crosses between threads, so its latency
    /// is lower (`Benchmarks/bench-vs-c --event-loops` shows it; docs/performance.md, "The event loops").
    public var eventLoopsInEffect: Int { eventLoops ?? max(1, System.coreCount - 1) }

    /// ``appflipPath``, or its default: `appflip` in the directory of the running executable, as a package
    /// installs the two side by side.
    public var appflipPathInEffect: String {
        if let appflipPath { return appflipPath }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return "appflip" }
        let executable = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return ConfigurationFile.directory(of: executable) + "/appflip"
    }

    /// Reads and validates `path`; directory paths in it are resolved against its directory.
    public static func load(from path: String) throws(ConfigurationError) -> DaemonConfiguration {
        var configuration = try ConfigurationFile.load(DaemonConfiguration.self, from: path)
        let directory = ConfigurationFile.directory(of: path)
        configuration.appsDirectory = configuration.appsDirectory.map { ConfigurationFile.resolve($0, against: directory) }
        configuration.appflipPath = configuration.appflipPath.map { ConfigurationFile.resolve($0, against: directory) }
        try configuration.validate(file: path)
        return configuration
    }

    /// Checks every value's range; `file` names the file in the errors.
    /// - Throws: the first field out of range.
    public func validate(file: String) throws(ConfigurationError) {
        func check(_ condition: Bool, _ field: String, _ message: String) throws(ConfigurationError) {
            if !condition { throw ConfigurationError(file: file, field: field, message) }
        }
        try check((1...65535).contains(listenBacklog), "listenBacklog", "must be between 1 and 65535, not \(listenBacklog)")
        try check((1024...16 << 20).contains(maxLineBytes), "maxLineBytes", "must be between 1024 and 16777216, not \(maxLineBytes)")
        try check((1...1 << 20).contains(maxConnections), "maxConnections", "must be between 1 and 1048576, not \(maxConnections)")
        try check(
            (1...maxConnections).contains(maxConnectionsPerUID),
            "maxConnectionsPerUID",
            "must be between 1 and maxConnections (\(maxConnections)), not \(maxConnectionsPerUID)"
        )
        if let reservedConnections {
            try check(
                (0..<maxConnections).contains(reservedConnections),
                "reservedConnections",
                "must be between 0 and maxConnections - 1 (\(maxConnections - 1)), not \(reservedConnections)"
            )
        }
        try check(
            (1...1 << 20).contains(reservedConnectionsPerUID),
            "reservedConnectionsPerUID",
            "must be between 1 and 1048576, not \(reservedConnectionsPerUID)"
        )
        try check(helloTimeoutSeconds > 0 && helloTimeoutSeconds <= 3600, "helloTimeoutSeconds", "must be more than 0 and at most 3600")
        try check(idleTimeoutSeconds >= 0 && idleTimeoutSeconds <= 86400, "idleTimeoutSeconds", "must be between 0 (off) and 86400")
        try check((1...1 << 20).contains(maxInFlightPerConnection), "maxInFlightPerConnection", "must be between 1 and 1048576")
        try check((1...1 << 20).contains(maxPendingPerLiveApp), "maxPendingPerLiveApp", "must be between 1 and 1048576")
        try check(liveAppTimeoutSeconds > 0 && liveAppTimeoutSeconds <= 3600, "liveAppTimeoutSeconds", "must be more than 0 and at most 3600")
        try check(execTimeoutSeconds > 0 && execTimeoutSeconds <= 3600, "execTimeoutSeconds", "must be more than 0 and at most 3600")
        try check(shutdownGraceSeconds >= 0 && shutdownGraceSeconds <= 600, "shutdownGraceSeconds", "must be between 0 and 600")
        try check((1...32).contains(maxHops), "maxHops", "must be between 1 and 32")
        try check((0...1024).contains(maxOpenedURLs), "maxOpenedURLs", "must be between 0 and 1024")
        try check(
            artifactTimeoutSeconds > 0 && artifactTimeoutSeconds <= 600,
            "artifactTimeoutSeconds",
            "must be more than 0 and at most 600"
        )
        try check(appflipPath.map { !$0.isEmpty } ?? true, "appflipPath", "must be a path to the appflip executable")
        if let eventLoops {
            try check((1...256).contains(eventLoops), "eventLoops", "must be between 1 and 256, not \(eventLoops)")
        }
        if let socket {
            try check(socket.hasPrefix("/"), "socket", "must be an absolute path")
            try check(
                socket.utf8.count < SocketPath.maxLength,
                "socket",
                "is longer than a Unix socket path may be (\(SocketPath.maxLength - 1) bytes)"
            )
        }
    }
}

extension DaemonConfiguration: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case socket, listenBacklog, appsDirectory, maxLineBytes, maxConnections, maxConnectionsPerUID, maxInFlightPerConnection,
            liveAppTimeoutSeconds, maxPendingPerLiveApp, execTimeoutSeconds
        case reservedConnections, reservedConnectionsPerUID, helloTimeoutSeconds, idleTimeoutSeconds
        case shutdownGraceSeconds, maxHops, maxOpenedURLs, claimPolicy, eventLoops, platform, android
        case appflipPath, artifactTimeoutSeconds
    }

    /// Decodes `appflipd.json` strictly: unknown keys are refused, absent ones keep their defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        let defaults = DaemonConfiguration()
        socket = try container.decodeIfPresent(String.self, forKey: .socket)
        listenBacklog = try container.decodeIntegerIfPresent(forKey: .listenBacklog) ?? defaults.listenBacklog
        appsDirectory = try container.decodeIfPresent(String.self, forKey: .appsDirectory)
        maxLineBytes = try container.decodeIntegerIfPresent(forKey: .maxLineBytes) ?? defaults.maxLineBytes
        maxConnections = try container.decodeIntegerIfPresent(forKey: .maxConnections) ?? defaults.maxConnections
        maxConnectionsPerUID = try container.decodeIntegerIfPresent(forKey: .maxConnectionsPerUID) ?? defaults.maxConnectionsPerUID
        reservedConnections = try container.decodeIntegerIfPresent(forKey: .reservedConnections)
        reservedConnectionsPerUID = try container.decodeIntegerIfPresent(forKey: .reservedConnectionsPerUID) ?? defaults.reservedConnectionsPerUID
        helloTimeoutSeconds = try container.decodeIfPresent(Double.self, forKey: .helloTimeoutSeconds) ?? defaults.helloTimeoutSeconds
        idleTimeoutSeconds = try container.decodeIfPresent(Double.self, forKey: .idleTimeoutSeconds) ?? defaults.idleTimeoutSeconds
        maxInFlightPerConnection = try container.decodeIntegerIfPresent(forKey: .maxInFlightPerConnection) ?? defaults.maxInFlightPerConnection
        liveAppTimeoutSeconds = try container.decodeIfPresent(Double.self, forKey: .liveAppTimeoutSeconds) ?? defaults.liveAppTimeoutSeconds
        maxPendingPerLiveApp = try container.decodeIntegerIfPresent(forKey: .maxPendingPerLiveApp) ?? defaults.maxPendingPerLiveApp
        execTimeoutSeconds = try container.decodeIfPresent(Double.self, forKey: .execTimeoutSeconds) ?? defaults.execTimeoutSeconds
        shutdownGraceSeconds = try container.decodeIfPresent(Double.self, forKey: .shutdownGraceSeconds) ?? defaults.shutdownGraceSeconds
        maxHops = try container.decodeIntegerIfPresent(forKey: .maxHops) ?? defaults.maxHops
        maxOpenedURLs = try container.decodeIntegerIfPresent(forKey: .maxOpenedURLs) ?? defaults.maxOpenedURLs
        claimPolicy = try container.decodeIfPresent(ClaimPolicy.self, forKey: .claimPolicy) ?? defaults.claimPolicy
        eventLoops = try container.decodeIntegerIfPresent(forKey: .eventLoops)
        platform = try container.decodeIfPresent(Platform.self, forKey: .platform) ?? defaults.platform
        android = try container.decodeIfPresent(AndroidSettings.self, forKey: .android) ?? defaults.android
        appflipPath = try container.decodeIfPresent(String.self, forKey: .appflipPath)
        artifactTimeoutSeconds =
            try container.decodeIfPresent(Double.self, forKey: .artifactTimeoutSeconds) ?? defaults.artifactTimeoutSeconds
    }
}
