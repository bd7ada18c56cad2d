public import AppFlipConfiguration
public import AppFlipCore
public import AppFlipDaemon
import AppFlipHTTPClient
public import AppFlipOAuth
public import AsyncHTTPClient
public import Logging

/// Builds the `"appflip"` handler: the partner app of App Flip, configured per app in `apps.d`.
///
/// `embedded` authorization needs the `EmbeddedAuthorizationServer` running in the same process; without
/// one, an app file that asks for it is refused at load. The HTTP client must not follow redirects
/// (`HTTPClient.Configuration.appFlipOAuth()`); its owner shuts it down.
public struct AppFlipPartnerHandlerFactory: HandlerFactory {
    /// The `handler` key that selects this factory in an app file: `{"handler": {"appflip": {…}}}`.
    public let kind = "appflip"

    private let embeddedServer: EmbeddedAuthorizationServer?
    private let httpClient: HTTPClient
    private let logger: Logger

    /// Creates the factory; pass `nil` for `embeddedServer` when the daemon runs without the OAuth server.
    public init(embeddedServer: EmbeddedAuthorizationServer?, httpClient: HTTPClient, logger: Logger) {
        self.embeddedServer = embeddedServer
        self.httpClient = httpClient
        self.logger = logger
    }

    /// Decodes the app file's `appflip` object and builds the partner handler.
    /// - Throws: a `ConfigurationError` naming the field, e.g. `embedded` authorization without an embedded server.
    public func makeHandler(
        _ configuration: JSONValue,
        context: HandlerFactoryContext
    ) throws(ConfigurationError)
        -> any ActivityHandler
    {
        let partner = try PartnerConfiguration(configuration, context: context)
        let source: any AuthorizationCodeSource
        switch partner.authorization {
        case .embedded(let user):
            let field = "handler.appflip.authorization.embedded"
            guard let embeddedServer else {
                throw ConfigurationError(file: context.file, field: field, "this appflipd runs no embedded OAuth server (see --oauth-config)")
            }
            guard embeddedServer.sessionCredential(for: user) != nil else {
                throw ConfigurationError(file: context.file, field: "\(field).user", "\(user) is not a user of the embedded OAuth server")
            }
            let known = Set(embeddedServer.configuration.clients.map(\.id))
            if let unknown = partner.policy.expectedClientIDs.first(where: { !known.contains($0) }) {
                throw ConfigurationError(
                    file: context.file,
                    field: "handler.appflip.clientIDs",
                    "\(unknown) is not a client of the embedded OAuth server, so no code could ever be issued for it"
                )
            }
            source = EmbeddedCodeSource(server: embeddedServer, user: user, httpClient: httpClient, timeout: partner.timeout, logger: logger)
        case .remote(let url, let credential, let timeout):
            source = AuthorizationEndpoint(
                url: url,
                credential: credential.map(SessionCredential.init),
                httpClient: httpClient,
                timeout: timeout,
                logger: logger
            )
        }
        return PartnerHandler(configuration: partner, source: source)
    }
}

extension SessionCredential {
    init(_ credential: PartnerConfiguration.RemoteCredential) {
        switch credential {
        case .cookie(let cookie): self = .cookie(cookie)
        case .header(let name, let value): self = .header(name: name, value: value)
        case .bearer(let token): self = .bearer(token)
        }
    }
}
