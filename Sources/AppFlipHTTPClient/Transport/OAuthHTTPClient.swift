public import AsyncHTTPClient
import NIOCore

extension HTTPClient.Configuration {
    /// The configuration `AuthorizationEndpoint` and `TokenEndpointClient` need: redirects are never
    /// followed (the authorization response *is* the redirect, and following it would hand the code to
    /// whatever host it names), and connecting is bounded and tried once: a refused connection or a failed
    /// TLS handshake is reported as what it is, at once, instead of being tried again until the connect
    /// timeout and then reported after it.
    public static func appFlipOAuth(connectTimeout: Duration = .seconds(5)) -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: TimeAmount(connectTimeout))
        )
        // A request waiting for a pooled connection counts against the connect timeout, so with the
        // default 8 connections per host a burst of concurrent flips to one authorization server queues
        // into spurious `cancelled` results. Concurrent step-3 calls each get their own connection.
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
        configuration.connectionPool.retryConnectionEstablishment = false
        return configuration
    }
}
