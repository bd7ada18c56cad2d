public import AppFlipHTTPClient

/// The authorization endpoint an audit checks, called as the partner app's signed-in user.
public struct AuthorizationEndpointTarget: Sendable, Hashable {
    /// The endpoint's URL; it may carry a query of its own.
    public var url: String
    /// Google's client id at the partner.
    public var clientID: String
    /// The scopes to ask for.
    public var scopes: [String]
    /// How the signed-in user is proven: cookie, header or bearer token, as the partner handler sends it.
    public var credential: SessionCredential?

    /// The endpoint at `url` for `clientID`, as the user `credential` proves.
    public init(url: String, clientID: String, scopes: [String], credential: SessionCredential?) {
        self.url = url
        self.clientID = clientID
        self.scopes = scopes
        self.credential = credential
    }
}
