import AppFlipDaemon
import AppFlipOAuth
import AppFlipPartner
import AsyncHTTPClient
import Logging
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#endif

/// The App Flip half of appflipd: the embedded OAuth2 server (one more service of the ServiceGroup) and
/// the `appflip` partner handler factory that gets codes from it, or from a remote endpoint.
///
/// The OAuth configuration is `--oauth-config`, or `oauth.json` next to the daemon configuration when
/// that file exists. Without one, appflipd runs no OAuth server and an app file asking for `embedded`
/// authorization is refused at load.
public struct EmbeddedOAuthComposition: Sendable {
    public let oauthServer: EmbeddedAuthorizationServer?
    /// The file `oauthServer` was configured from.
    public let oauthConfigurationFile: String?
    /// Shared by every partner handler: redirects are never followed.
    public let httpClient: HTTPClient
    public let handlerFactories: [any HandlerFactory]

    public init(oauthConfigurationFile explicit: String?, daemonConfigurationFile: String?, logger: Logger) throws(AppFlipDaemon.ConfigurationError) {
        let file = explicit ?? daemonConfigurationFile.map(Self.siblingOAuthFile).flatMap { access($0, F_OK) == 0 ? $0 : nil }
        if let file {
            let configuration: OAuthServerConfiguration
            do {
                configuration = try OAuthServerConfiguration.load(from: file)
                oauthServer = try EmbeddedAuthorizationServer(configuration: configuration, logger: logger)
            } catch {
                throw error.located(in: file)
            }
        } else {
            oauthServer = nil
        }
        oauthConfigurationFile = file
        var clientConfiguration = HTTPClient.Configuration.appFlipOAuth()
        // One connection per concurrent flip, up to 64, instead of the default 8 per host.
        clientConfiguration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
        httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: clientConfiguration)
        handlerFactories = BuiltinHandlerFactories.all + [
            AppFlipPartnerHandlerFactory(embeddedServer: oauthServer, httpClient: httpClient, logger: logger)
        ]
    }

    /// The OAuth server's service; listed first, so that the group stops it after the daemon.
    public var services: [ServiceGroupConfiguration.ServiceConfiguration] {
        oauthServer.map { [.init(service: $0)] } ?? []
    }

    public func shutdown() async {
        try? await httpClient.shutdown()
    }

    static func siblingOAuthFile(of daemonConfigurationFile: String) -> String {
        guard let slash = daemonConfigurationFile.lastIndex(of: "/") else { return "oauth.json" }
        return String(daemonConfigurationFile[...slash]) + "oauth.json"
    }
}
