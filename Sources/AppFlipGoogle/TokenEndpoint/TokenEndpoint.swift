import AppFlipConfiguration
import Glibc

/// Where the Google side exchanges the code, as Google's server does: a token URL and the client's
/// secret, given or read from the embedded server's OAuth configuration.
public struct TokenEndpoint: Sendable {
    /// Where the embedded server's configuration is installed; read when no `--oauth-config` is given.
    public static let defaultOAuthConfiguration = "/etc/appflipd/oauth.json"

    /// The token endpoint's URL, e.g. `http://127.0.0.1:8471/token`.
    public var url: String
    /// The partner client's secret, sent as Google sends it (`client_secret_post`).
    public var clientSecret: String

    /// Creates an endpoint from an explicit URL and secret.
    public init(url: String, clientSecret: String) {
        self.url = url
        self.clientSecret = clientSecret
    }

    /// Why no token endpoint could be worked out, in words for a command line.
    public struct Unresolved: Error, Sendable, CustomStringConvertible {
        /// What is missing and which option supplies it.
        public var description: String
    }

    /// `tokenURL` and `clientSecret` when both are given; otherwise the embedded server's `/token` and the
    /// client's secret from `oauthConfiguration` (default ``defaultOAuthConfiguration``), each overridable.
    public static func resolve(
        tokenURL: String?,
        clientSecret: String?,
        oauthConfiguration: String?,
        clientID: String
    ) throws(Unresolved) -> TokenEndpoint {
        if let tokenURL, let clientSecret { return TokenEndpoint(url: tokenURL, clientSecret: clientSecret) }
        let file = oauthConfiguration ?? (access(defaultOAuthConfiguration, R_OK) == 0 ? defaultOAuthConfiguration : nil)
        guard let file else {
            throw Unresolved(
                description:
                    "no token endpoint: give --oauth-config (the embedded server's oauth.json), or --token-url and --client-secret, or --no-exchange"
            )
        }
        let configuration: OAuthServerConfiguration
        do {
            configuration = try OAuthServerConfiguration.load(from: file)
        } catch {
            throw Unresolved(description: "\(error)")
        }
        guard let client = configuration.clients.first(where: { $0.id == clientID }) else {
            throw Unresolved(description: "\(file) has no client \(clientID); give --client-secret and --token-url")
        }
        guard configuration.port != 0 || tokenURL != nil else {
            throw Unresolved(description: "\(file) binds an ephemeral port (0); give --token-url")
        }
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return TokenEndpoint(
            url: tokenURL ?? "http://\(host):\(configuration.port)/token",
            clientSecret: clientSecret ?? client.secret
        )
    }
}
