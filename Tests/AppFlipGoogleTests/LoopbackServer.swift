import Hummingbird
import Logging
import Synchronization
import Testing

/// Serves `router` on an ephemeral 127.0.0.1 port while `body` runs with its base URL,
/// `http://127.0.0.1:PORT`: a partner endpoint that misbehaves on purpose.
func withLoopbackServer<Result: Sendable>(
    _ router: Router<BasicRequestContext>,
    _ body: (_ baseURL: String) async throws -> Result
) async throws -> Result {
    let bound = Mutex<Int?>(nil)
    let application = Application(
        router: router,
        configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { channel in bound.withLock { $0 = channel.localAddress?.port } },
        logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
    )
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await application.run() }
        defer { group.cancelAll() }
        var port: Int?
        for _ in 0..<200 where port == nil {
            port = bound.withLock { $0 }
            if port == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        return try await body("http://127.0.0.1:\(try #require(port))")
    }
}
