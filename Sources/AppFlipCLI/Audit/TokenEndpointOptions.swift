import AppFlipGoogle
import ArgumentParser

/// Google's step 4 target for `flip` and `audit`: the token endpoint and the client secret, given directly
/// or read from the embedded server's `oauth.json`.
struct TokenEndpointOptions: ParsableArguments {
    @Option(
        help:
            "The embedded OAuth server's configuration, for its token URL and the client's secret (appflip flip's default: \(TokenEndpoint.defaultOAuthConfiguration), when it exists)."
    )
    var oauthConfig: String?

    @Option(help: "The token endpoint, overriding the OAuth configuration's.")
    var tokenURL: String?

    @Option(
        help: "The client secret, overriding the OAuth configuration's. Shown by ps: prefer --client-secret-file or $APPFLIP_CLIENT_SECRET."
    )
    var clientSecret: String?

    @Option(help: "A file holding the client secret (one final line break is ignored).")
    var clientSecretFile: String?

    /// Whether the command line names a token endpoint, directly or through a configuration.
    var isGiven: Bool { tokenURL != nil || oauthConfig != nil }

    /// Refuses both secret options at once, and an unreadable or empty secret file, before anything runs.
    func validate() throws {
        _ = try SecretOption.clientSecret.resolve(value: clientSecret, file: clientSecretFile)
    }

    /// The endpoint and secret for `clientID`: the options first, then the configuration (or the default one).
    func endpoint(clientID: String) throws -> TokenEndpoint {
        let clientSecret = try SecretOption.clientSecret.resolve(value: clientSecret, file: clientSecretFile)?.secret
        do {
            return try TokenEndpoint.resolve(tokenURL: tokenURL, clientSecret: clientSecret, oauthConfiguration: oauthConfig, clientID: clientID)
        } catch {
            throw ValidationError(error.description)
        }
    }
}
