/// A flip link that passed every check.
public struct FlipRequest: Sendable, Hashable {
    /// Byte-for-byte one of the policy's expected client ids.
    public let clientID: String
    /// The scopes, in the order received; never empty.
    public let scopes: [String]
    /// The nonce to echo byte for byte; never empty.
    public let state: String
    /// The verified redirect URI: the only place the result may go.
    public let redirectURI: AllowedRedirectURI

    /// What to ask the partner's OAuth2 server for (step 3).
    public var authorizationRequest: AuthorizationRequest {
        AuthorizationRequest(clientID: clientID, redirectURI: redirectURI.string, scopes: scopes)
    }
}
