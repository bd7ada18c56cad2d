import AppFlipOAuth
import ArgumentParser

#if canImport(Glibc)
import Glibc
#endif

/// Where `appflip flip` exchanges the code, as Google's server: `--token-url`/`--client-secret`, or the
/// embedded server's `/token` and the client's secret read from its OAuth configuration.
struct FlipTokenEndpoint: Sendable {
    static let defaultOAuthConfiguration = "/etc/appflipd/oauth.json"

    var url: String
    var clientSecret: String

    static func resolve(
        tokenURL: String?, clientSecret: String?, oauthConfiguration: String?, clientID: String
    ) throws -> FlipTokenEndpoint {
        if let tokenURL, let clientSecret { return FlipTokenEndpoint(url: tokenURL, clientSecret: clientSecret) }
        let file = oauthConfiguration ?? (access(defaultOAuthConfiguration, R_OK) == 0 ? defaultOAuthConfiguration : nil)
        guard let file else {
            throw ValidationError(
                "no token endpoint: give --oauth-config (the embedded server's oauth.json), or --token-url and --client-secret, or --no-exchange")
        }
        let configuration: OAuthServerConfiguration
        do {
            configuration = try OAuthServerConfiguration.load(from: file)
        } catch {
            throw ValidationError("\(error)")
        }
        guard let client = configuration.clients.first(where: { $0.id == clientID }) else {
            throw ValidationError("\(file) has no client \(clientID); give --client-secret and --token-url")
        }
        guard configuration.port != 0 || tokenURL != nil else {
            throw ValidationError("\(file) binds an ephemeral port (0); give --token-url")
        }
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return FlipTokenEndpoint(
            url: tokenURL ?? "http://\(host):\(configuration.port)/token", clientSecret: clientSecret ?? client.secret)
    }
}
