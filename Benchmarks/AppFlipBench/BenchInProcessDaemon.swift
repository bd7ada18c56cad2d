import AppFlipConfiguration
import AppFlipDaemon
import AppFlipServer
import FoundationEssentials
import Logging
import NIOCore
import ServiceLifecycle

/// appflipd's composition on a temporary socket in the bench's own process, with the app files it is given
/// and, optionally, the embedded OAuth server. Logging is off: the bench measures the work, not the journal.
enum BenchInProcessDaemon {
    /// Runs `body` with the daemon listening at `directory`/appflipd.sock and serving `apps` (file name →
    /// app file JSON) from `directory`/apps.d, then stops it gracefully, also when `body` throws.
    static func run<Result: Sendable>(
        directory: String,
        apps: [String: String],
        oauth: OAuthServerConfiguration? = nil,
        group: any EventLoopGroup,
        _ body: @escaping @Sendable (_ socket: String, _ composition: DaemonComposition) async throws -> Result
    ) async throws -> Result {
        let logger = Logger(label: "appflip-bench", factory: { _ in SwiftLogNoOpLogHandler() })
        var configuration = DaemonConfiguration()
        configuration.socket = directory + "/appflipd.sock"
        configuration.appsDirectory = directory + "/apps.d"
        try FileManager.default.createDirectory(atPath: directory + "/apps.d", withIntermediateDirectories: false)
        for (name, json) in apps {
            try Data(json.utf8).write(to: URL(filePath: directory + "/apps.d/" + name))
        }
        let (ready, readyContinuation) = AsyncStream.makeStream(of: Void.self)
        let composition = try DaemonComposition(
            configuration: configuration,
            oauth: oauth,
            listener: .path(configuration.socket!),
            eventLoopGroup: group,
            logger: logger,
            onReady: { _ in readyContinuation.finish() }
        )
        let serviceGroup = ServiceGroup(configuration: .init(services: composition.services, logger: logger))
        let socket = configuration.socket!
        return try await withThrowingTaskGroup(of: Result?.self) { tasks in
            tasks.addTask {
                try await serviceGroup.run()
                return nil
            }
            for await _ in ready {}
            let result: Result
            do {
                result = try await body(socket, composition)
            } catch {
                await serviceGroup.triggerGracefulShutdown()
                while (try? await tasks.next()) != nil {}
                throw error
            }
            await serviceGroup.triggerGracefulShutdown()
            while try await tasks.next() != nil {}
            return result
        }
    }
}
