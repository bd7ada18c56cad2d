/// What the partner app asks its OAuth2 server for, after the flip link passed every check.
public struct AuthorizationRequest: Sendable, Hashable {
    /// The `client_id` from the flip link, already checked against the policy's expected ids.
    public var clientID: String
    /// One of the allowed App Flip redirect URIs, exactly as received.
    public var redirectURI: String
    /// The scopes from the flip link's `scope`, split on spaces (RFC 6749 §3.3).
    public var scopes: [String]

    /// Creates a request from the checked flip link's values.
    public init(clientID: String, redirectURI: String, scopes: [String]) {
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.scopes = scopes
    }
}
