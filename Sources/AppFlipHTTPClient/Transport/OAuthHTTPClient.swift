public import AsyncHTTPClient
import NIOCore
import NIOSSL

extension HTTPClient.Configuration {
    /// The configuration of every client appflip and appflipd call partner and Google servers with (the hosted
    /// association fetch sets its own trust on top of it):
    /// - redirects are never followed: the authorization response *is* the redirect, following it would hand
    ///   the code to whatever host it names, and a token endpoint, a resource or an association file must not
    ///   redirect;
    /// - no body is decompressed: nothing asks for an encoding, so a gzip body sent anyway is read as the bytes
    ///   it is (and fails as the malformed answer it is) instead of being inflated past the size cap;
    /// - connecting, the TLS handshake included, is bounded and tried once: a refused connection or a failed
    ///   handshake is reported as what it is, at once, instead of being tried again until the connect timeout;
    /// - closing a TLS connection waits at most `OutboundBounds.tlsShutdownTimeout` for the server's close_notify
    ///   (NIOSSL waits 5 s), so that a server that stops reading cannot hold a shutdown past the deadline;
    /// - an idle pooled connection is closed after 1 s, before the shortest keep-alive common servers grant
    ///   (gunicorn's 2 s, uvicorn's and Node's 5 s), so that the client ends it: a request written while the
    ///   server is closing the connection fails, and whether the server saw it cannot be known.
    /// The rest of the bounds (deadline, body size) are per request: `OutboundBounds`, applied by `exchange`.
    public static func appFlipOAuth(connectTimeout: Duration = OutboundBounds.connectTimeout) -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: TimeAmount(connectTimeout)),
            decompression: .disabled
        )
        // A request waiting for a pooled connection counts against the connect timeout, so with the
        // default 8 connections per host a burst of concurrent flips to one authorization server queues
        // into spurious `cancelled` results. Concurrent step-3 calls each get their own connection.
        configuration.connectionPool = .init(idleTimeout: .seconds(1), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
        configuration.connectionPool.retryConnectionEstablishment = false
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.shutdownTimeout = TimeAmount(OutboundBounds.tlsShutdownTimeout)
        configuration.tlsConfiguration = tls
        return configuration
    }
}
