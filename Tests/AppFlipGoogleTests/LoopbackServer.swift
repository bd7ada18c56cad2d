import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// Serves `router` on an ephemeral loopback port while `body` runs with its base URL,
/// `http://localhost:PORT`: a partner endpoint that misbehaves on purpose. The code under test connects
/// over a socket, so HummingbirdTesting's `.live` setup, which stops the server gracefully, never by
/// cancellation (apple/swift-nio#3481).
func withLoopbackServer<Result: Sendable>(
    _ router: Router<BasicRequestContext>,
    _ body: @Sendable (_ baseURL: String) async throws -> Result
) async throws -> Result {
    let application = Application(router: router, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
    return try await application.test(.live) { client in
        try await body("http://localhost:\(try #require(client.port))")
    }
}
