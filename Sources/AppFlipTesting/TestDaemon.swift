import AppFlipCore
import AppFlipClient
import AppFlipDaemon
import AppFlipProtocol
import FoundationEssentials
import Logging
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#endif

/// A real appflipd listening on a socket in a fresh temporary directory, for tests: in this process with
/// ``withTestDaemon(configuration:apps:logger:_:)``, or as the built executable with ``TestDaemonProcess``.
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
    public let socketPath: String
    public let configurationFile: String

    /// A new connection that has said `hello`.
    public func connect(client: String? = "test") async throws -> AppFlipConnection {
        try await AppFlipConnection.connect(to: socketPath, client: client)
    }
}

/// Runs `body` against a daemon with `apps` on a temporary socket, then stops it gracefully and removes
/// the directory.
public func withTestDaemon<Result: Sendable>(
    configuration: DaemonConfiguration = DaemonConfiguration(),
    apps: [TestApp] = [],
    logger: Logger = Logger(label: "appflipd-test", factory: { _ in SwiftLogNoOpLogHandler() }),
    _ body: @Sendable (TestDaemon) async throws -> Result
) async throws -> Result {
    let daemon = try TestDaemon.make(configuration: configuration, apps: apps)
    defer { TestDirectory.remove(daemon.directory) }
    let loaded = try DaemonConfiguration.load(from: daemon.configurationFile)
    let (ready, readyContinuation) = AsyncStream.makeStream(of: Void.self)
    let service = try DaemonService(
        configuration: loaded, configurationFile: daemon.configurationFile, listener: .path(daemon.socketPath), logger: logger,
        onReady: { _ in readyContinuation.yield(); readyContinuation.finish() })
    let group = ServiceGroup(configuration: .init(services: [service], logger: logger))
    return try await withThrowingTaskGroup(of: Result?.self) { tasks in
        tasks.addTask {
            try await group.run()
            return nil
        }
        for await _ in ready { break }
        do {
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
    /// A new temporary directory with `appflipd.json` and `apps.d/`, for ``withTestDaemon(configuration:apps:logger:_:)``
    /// or for running the `appflipd` executable with ``TestDaemonProcess``. The caller removes ``directory``.
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
                "association": .object(["applinks": .object(["details": .array([
                    .object(["appIDs": .array([.string(app.appID)]), "components": .array(app.components)]),
                ])])]),
            ]
            if let priority = app.priority { document["priority"] = .number(Double(priority)) }
            switch app.handler {
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
