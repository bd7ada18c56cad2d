public import AppFlipConfiguration
public import AppFlipDaemon
import AppFlipHTTPClient
public import AppFlipOAuth
import AppFlipPartner
public import AsyncHTTPClient
public import Logging
public import NIOCore
public import NIOPosix
public import ServiceLifecycle
import Systemd

/// appflipd, composed once: the daemon, the embedded OAuth2 server, the HTTP client the partner handler
/// calls authorization endpoints with, and the handler factories. `appflipd`, `appflip-bench`'s in-process
/// daemon and `AppFlipTesting` all run this, so that a test exercises the composition production runs.
///
/// Run ``services`` in one `ServiceGroup`. They are listed in start order; the group stops them in reverse,
/// so the daemon drains first, then the OAuth server stops, then the HTTP client shuts down.
public struct DaemonComposition: Sendable {
    /// The Unix-socket daemon, with every handler factory of the composition installed.
    public let daemon: DaemonService
    /// The embedded OAuth server, when an OAuth configuration was given.
    public let oauthServer: EmbeddedAuthorizationServer?
    /// Shared by every partner handler; redirects are never followed. Its life is the `ServiceGroup`'s.
    public let httpClient: HTTPClient

    /// Loads everything now, so that a bad configuration fails before anything listens.
    ///
    /// - Parameters:
    ///   - configurationFile: the file the daemon re-reads on reload; nil for a configuration built in code.
    ///   - oauth: the embedded OAuth server's configuration; without one, no OAuth server runs and an app file
    ///     asking for `embedded` authorization is refused.
    ///   - handlerFactories: handler kinds beyond the built-in `exec`, `builtin` and `appflip` ones.
    ///   - onReady: called once the socket accepts connections (systemd's `READY=1` goes here).
    public init(
        configuration: DaemonConfiguration,
        configurationFile: String? = nil,
        oauth: OAuthServerConfiguration? = nil,
        listener: ListenerSource,
        handlerFactories: [any HandlerFactory] = [],
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger,
        onReady: @escaping @Sendable (DaemonService.ListeningAddress) -> Void = { _ in }
    ) throws(ConfigurationError) {
        let oauthServer = try oauth.map { oauth throws(ConfigurationError) in try EmbeddedAuthorizationServer(configuration: oauth, logger: logger) }
        let httpClient = HTTPClient(eventLoopGroup: eventLoopGroup, configuration: .appFlipOAuth())
        let factories =
            BuiltinHandlerFactories.all + handlerFactories + [
                AppFlipPartnerHandlerFactory(embeddedServer: oauthServer, httpClient: httpClient, logger: logger)
            ]
        do {
            daemon = try DaemonService(
                configuration: configuration,
                configurationFile: configurationFile,
                listener: listener,
                handlerFactories: factories,
                eventLoopGroup: eventLoopGroup,
                logger: logger,
                handoffLog: (logger.handler as? JournalLogHandler).map(JournalHandoffLog.init),
                onReady: onReady
            )
        } catch {
            // Never run, so nothing else will shut it down.
            try? httpClient.syncShutdown()
            throw error
        }
        self.oauthServer = oauthServer
        self.httpClient = httpClient
    }

    /// The services, in start order.
    public var services: [ServiceGroupConfiguration.ServiceConfiguration] {
        [.init(service: HTTPClientLifetime(client: httpClient))] + (oauthServer.map { [.init(service: $0)] } ?? []) + [.init(service: daemon)]
    }

    /// Shuts down what ``init`` started, for a composition that is never run (`appflipd --check`).
    public func discard() async {
        try? await httpClient.shutdown()
    }
}

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
