public import AppFlipGoogle

/// The token endpoint an audit checks: where it is, the client it knows, and the optional extras.
public struct TokenEndpointTarget: Sendable, Hashable {
    /// The token endpoint's URL.
    public var url: String
    /// The partner's client id for Google.
    public var clientID: String
    /// The client's secret; only its fingerprint ever reaches a report.
    public var clientSecret: String
    /// How Google authenticates at the token endpoint, as the partner configured it in the console
    /// (`--client-auth`): refusing it is `token.client-auth`'s failure; the other method is information.
    public var clientAuth: ClientAuthMethod
    /// A protected resource a valid access token must open (`token.resource`, `token.resource-refusal`).
    public var resourceURL: String?
    /// The RFC 7009 revocation endpoint Google calls when a user unlinks (`token.revoke`, `token.revoke-unknown`).
    public var revokeURL: String?
    /// Run the slow check: a code older than 10 minutes must be refused (`token.code-expiry`).
    public var codeExpiry: Bool

    /// The token endpoint at `url` for `clientID`; the extras are off unless given.
    public init(
        url: String,
        clientID: String,
        clientSecret: String,
        clientAuth: ClientAuthMethod = .post,
        resourceURL: String? = nil,
        revokeURL: String? = nil,
        codeExpiry: Bool = false
    ) {
        self.url = url
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.clientAuth = clientAuth
        self.resourceURL = resourceURL
        self.revokeURL = revokeURL
        self.codeExpiry = codeExpiry
    }
}
