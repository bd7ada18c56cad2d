import Hummingbird
import Logging
import ServiceLifecycle
import Synchronization

/// Runs a Hummingbird router on 127.0.0.1 (an ephemeral port) around `body`, then stops it by graceful
/// shutdown, never by cancellation.
enum TestHTTPServer {
    static let noLogs = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    static func run<Result: Sendable>(_ router: Router<BasicRequestContext>, _ body: (String) async throws -> Result) async throws -> Result {
        let bound = Mutex<Int?>(nil)
        let application = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in bound.withLock { $0 = channel.localAddress?.port } },
            logger: noLogs
        )
        let group = ServiceGroup(services: [application], gracefulShutdownSignals: [], logger: noLogs)
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var port: Int?
            for _ in 0..<400 where port == nil {
                port = bound.withLock { $0 }
                if port == nil { try await Task.sleep(for: .milliseconds(25)) }
            }
            do {
                guard let port else { throw TestServerError(description: "the test server did not start") }
                let result = try await body("http://127.0.0.1:\(port)")
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return result
            } catch {
                await group.triggerGracefulShutdown()
                try? await tasks.waitForAll()
                throw error
            }
        }
    }
}

struct TestServerError: Error, CustomStringConvertible {
    var description: String
}
