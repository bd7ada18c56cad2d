import AsyncHTTPClient
import ServiceLifecycle

/// Ties an `HTTPClient`'s life to a `ServiceGroup`: it shuts the client down when the group stops. Listed
/// before the services that use the client, it is stopped after them.
struct HTTPClientLifetime: Service {
    let client: HTTPClient

    func run() async throws {
        // Cancelled instead of gracefully stopped: shut down all the same.
        try? await gracefulShutdown()
        try await client.shutdown()
    }
}
