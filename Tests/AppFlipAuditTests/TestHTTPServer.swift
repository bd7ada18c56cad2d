import AppFlipAudit
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// Runs a Hummingbird router on an ephemeral loopback port around `body`, which gets its base URL,
/// `http://localhost:PORT`. The audit connects over a socket, so HummingbirdTesting's `.live` setup, which
/// stops the server gracefully, never by cancellation (apple/swift-nio#3481).
enum TestHTTPServer {
    static let noLogs = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    static func run<Result: Sendable>(
        _ router: Router<BasicRequestContext>,
        _ body: @Sendable (String) async throws -> Result
    ) async throws -> Result {
        try await Application(router: router, logger: noLogs).test(.live) { client in
            try await body("http://localhost:\(try #require(client.port))")
        }
    }
}
