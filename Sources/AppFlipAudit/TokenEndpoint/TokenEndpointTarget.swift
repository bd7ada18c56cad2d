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
    /// Run the slow checks: a code older than 10 minutes must be refused (`token.code-expiry`), a refresh
    /// must work once the access token has expired (`token.refresh-after-expiry`).
    public var codeExpiry: Bool
    /// A second client registered at the partner (`--second-client-id`, `--second-client-secret-file`): one
    /// client's codes and refresh tokens must be refused to the other.
    public var secondClient: SecondClient?
    /// How many refreshes in a row `token.refresh-chain` makes (`--refresh-chain`).
    public var refreshChainLength: Int = Self.defaultRefreshChainLength
    /// How long after a rotation `token.refresh-rotation` presents the rotated-out refresh token again
    /// (`--rotation-grace`), as Google retries a refresh whose answer was lost.
    public var rotationGrace: Duration = Self.defaultRotationGrace

    /// Five: past the three a partner's own tests usually try, where a server that retires refresh tokens
    /// after a fixed count, or leaks one generation per refresh, shows.
    public static let defaultRefreshChainLength = 5
    /// Two seconds: Google documents no retry schedule; a client retries a lost answer after a back-off of
    /// a second or more, and a grace shorter than that unlinks the user on one lost answer. It keeps the
    /// audit within its bounds, since the wait overlaps the other checks.
    public static let defaultRotationGrace = Duration.seconds(2)

    /// A second confidential client of the partner.
    public struct SecondClient: Sendable, Hashable {
        public var id: String
        public var secret: String

        /// The client `id` with `secret`.
        public init(id: String, secret: String) {
            self.id = id
            self.secret = secret
        }
    }

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
