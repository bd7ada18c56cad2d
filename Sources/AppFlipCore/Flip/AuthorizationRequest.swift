/// What the partner app asks its OAuth2 server for, after the flip link passed every check.
public struct AuthorizationRequest: Sendable, Hashable {
    public var clientID: String
    /// One of the allowed App Flip redirect URIs, exactly as received.
    public var redirectURI: String
    public var scopes: [String]

    public init(clientID: String, redirectURI: String, scopes: [String]) {
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.scopes = scopes
    }
}
