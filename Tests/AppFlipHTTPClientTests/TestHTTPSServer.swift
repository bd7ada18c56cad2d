import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// An HTTPS/1.1 server on 127.0.0.1 with a certificate from `TestCertificateAuthority`, answering by path.
/// Raw NIO: a route may never answer (`.silence`), which a Hummingbird server's graceful shutdown would wait for.
struct TestHTTPSServer: Sendable {
    let port: Int
    private let channel: any Channel

    /// Starts a server on 127.0.0.1 and an ephemeral port.
    static func start(
        identity: TestCertificateAuthority.ServerIdentity,
        routes: @escaping @Sendable (String) -> TestHTTPResponse?
    ) async throws -> TestHTTPSServer {
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMBytes(Array(identity.certificatePEM.utf8)).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(identity.privateKeyPEM.utf8), format: .pem))
        )
        let context = try NIOSSLContext(configuration: configuration)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(TestHTTPSHandler(routes: routes))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return TestHTTPSServer(port: channel.localAddress?.port ?? 0, channel: channel)
    }

    /// Runs `body` with a server, and closes it after.
    static func with<T>(
        identity: TestCertificateAuthority.ServerIdentity,
        routes: @escaping @Sendable (String) -> TestHTTPResponse?,
        _ body: (TestHTTPSServer) async throws -> T
    ) async throws -> T {
        let server = try await start(identity: identity, routes: routes)
        do {
            let result = try await body(server)
            try await server.channel.close()
            return result
        } catch {
            try? await server.channel.close()
            throw error
        }
    }

    /// The CDN base that serves `/a/v1/DOMAIN` from this server.
    var cdnBase: String { "https://localhost:\(port)/a/v1" }
}
