public import AppFlipClient
public import AppFlipConfiguration
import AppFlipCore
public import AppFlipDaemon
public import AppFlipOAuth
import AppFlipProtocol
import AppFlipServer
public import AsyncHTTPClient
import FoundationEssentials
import Glibc
public import Logging
import ServiceLifecycle

/// A real appflipd listening on a socket in a fresh temporary directory, for tests: in this process with
/// ``withTestDaemon(configuration:apps:oauth:handlerFactories:logger:_:)`` (the composition `appflipd`
/// runs), or as a directory made by ``make(configuration:apps:)`` for an `appflipd` process to run.
///
/// ```swift
/// try await withTestDaemon(apps: [TestApp(appID: "T.a", domains: ["applinks:a.test"], handler: .accept)]) { daemon in
///     let client = try await daemon.connect()
///     let result = try await client.open("https://a.test/x")
/// }
/// ```
public struct TestDaemon: Sendable {
    /// The temporary directory: `appflipd.json`, `apps.d/`, the socket, and handler scripts.
    public let directory: String
    /// The daemon's Unix socket, inside ``directory``; give it to a client's `--socket`.
    public let socketPath: String
    /// The daemon's `appflipd.json`, inside ``directory``; give it to `appflipd --config`.
    public let configurationFile: String
    /// The embedded OAuth server, in a daemon started with an OAuth configuration.
    public internal(set) var oauthServer: EmbeddedAuthorizationServer?
    /// The in-process daemon's HTTP client (it follows no redirect), for a test's own OAuth calls.
    public internal(set) var httpClient: HTTPClient?

    /// A new connection that has said `hello`.
    public func connect(client: String? = "test") async throws -> AppFlipConnection {
        try await AppFlipConnection.connect(to: socketPath, client: client)
    }
}

/// Runs `body` against a daemon with `apps` on a temporary socket, then stops it gracefully and removes
/// the directory.
///
/// - Parameters:
///   - configuration: the daemon's settings, written to `appflipd.json`; `appsDirectory` is set to the
///     temporary `apps.d`.
///   - apps: the static apps, one app file each.
///   - oauth: runs the embedded OAuth server too, on the port it names (0: an ephemeral one), so that
///     `appflip` partner handlers can use `embedded` authorization; ``TestDaemon/oauthServer`` is then set
///     and listening when `body` starts.
///   - handlerFactories: handler kinds beyond appflipd's own, for ``TestApp/Handler/configured(_:)`` apps.
///   - logger: the daemon's logger; silent by default.
///   - body: the test, given the running daemon; the daemon stops when it returns or throws.
public func withTestDaemon<Result: Sendable>(
    configuration: DaemonConfiguration = DaemonConfiguration(),
    apps: [TestApp] = [],
    oauth: OAuthServerConfiguration? = nil,
    handlerFactories: [any HandlerFactory] = [],
    logger: Logger = Logger(label: "appflipd-test", factory: { _ in SwiftLogNoOpLogHandler() }),
    _ body: @Sendable (TestDaemon) async throws -> Result
) async throws -> Result {
    var daemon = try TestDaemon.make(configuration: configuration, apps: apps)
    defer { TestDirectory.remove(daemon.directory) }
    let loaded = try DaemonConfiguration.load(from: daemon.configurationFile)
    let (ready, readyContinuation) = AsyncStream.makeStream(of: Void.self)
    let composition = try DaemonComposition(
        configuration: loaded,
        configurationFile: daemon.configurationFile,
        oauth: oauth,
        listener: .path(daemon.socketPath),
        handlerFactories: handlerFactories,
        logger: logger,
        onReady: { _ in readyContinuation.finish() }
    )
    daemon.oauthServer = composition.oauthServer
    daemon.httpClient = composition.httpClient
    let group = ServiceGroup(configuration: .init(services: composition.services, logger: logger))
    return try await withThrowingTaskGroup(of: Result?.self) { [daemon] tasks in
        tasks.addTask {
            try await group.run()
            return nil
        }
        for await _ in ready {}
        do {
            _ = try await composition.oauthServer?.listeningPort()
            let result = try await body(daemon)
            await group.triggerGracefulShutdown()
            while try await tasks.next() != nil {}
            return result
        } catch {
            await group.triggerGracefulShutdown()
            while (try? await tasks.next()) != nil {}
            throw error
        }
    }
}

extension TestDaemon {
    /// A new temporary directory with `appflipd.json` and `apps.d/`, for ``withTestDaemon(configuration:apps:oauth:handlerFactories:logger:_:)``
    /// or for an `appflipd` process (`appflipd --config` ``configurationFile``). The caller removes ``directory``.
    public static func make(configuration: DaemonConfiguration = DaemonConfiguration(), apps: [TestApp] = []) throws -> TestDaemon {
        let directory = try TestDirectory.make()
        var configuration = configuration
        configuration.socket = directory + "/appflipd.sock"
        configuration.appsDirectory = "apps.d"
        mkdir(directory + "/apps.d", 0o755)
        for (index, app) in apps.enumerated() {
            var document: [String: JSONValue] = [
                "appID": .string(app.appID),
                "domains": .array(app.domains.map(JSONValue.string)),
                "association": .object([
                    "applinks": .object([
                        "details": .array([
                            .object(["appIDs": .array([.string(app.appID)]), "components": .array(app.components)])
                        ])
                    ])
                ]),
            ]
            if let priority = app.priority { document["priority"] = .number(Double(priority)) }
            if let android = app.android {
                var object = try JSONDecoder().decode([String: JSONValue].self, from: JSONEncoder().encode(android))
                var files: [String: JSONValue] = [:]
                for (host, list) in app.assetLinks {
                    let name = "app-\(index + 100)-\(host).assetlinks.json"
                    try TestDirectory.write(
                        String(decoding: try JSONEncoder.protocolEncoder.encode(list), as: UTF8.self),
                        to: directory + "/" + name,
                        mode: 0o644
                    )
                    // Outside apps.d, where every .json file is an app file.
                    files[host] = .string("../" + name)
                }
                if !files.isEmpty { object["assetLinks"] = .object(files) }
                document["android"] = .object(object)
                if app.domains.isEmpty {
                    document["domains"] = nil
                    document["association"] = nil
                }
            }
            switch app.handler {
            case .configured(let handler):
                document["handler"] = handler
            case .accept:
                document["handler"] = .object(["builtin": .string("accept")])
            case .script(let script, let timeout):
                let path = directory + "/handler-\(index).sh"
                try TestDirectory.write("#!/bin/sh\n" + script + "\n", to: path, mode: 0o755)
                var exec: [String: JSONValue] = ["command": .string(path)]
                if let timeout { exec["timeoutSeconds"] = .number(timeout) }
                document["handler"] = .object(["exec": .object(exec)])
            }
            let json = String(decoding: try JSONEncoder.protocolEncoder.encode(JSONValue.object(document)), as: UTF8.self)
            try TestDirectory.write(json, to: directory + "/apps.d/app-\(String(index + 100)).json", mode: 0o644)
        }
        let file = directory + "/appflipd.json"
        try TestDirectory.write(String(decoding: try JSONEncoder.protocolEncoder.encode(configuration), as: UTF8.self), to: file, mode: 0o644)
        return TestDaemon(directory: directory, socketPath: configuration.socket!, configurationFile: file)
    }
}

/// A test daemon cannot do what the test asked of it.
public struct TestDaemonError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in words.
    public var description: String
}
