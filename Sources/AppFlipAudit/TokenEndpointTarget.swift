/// The token endpoint an audit checks: where it is, the client it knows, and the optional extras.
public struct TokenEndpointTarget: Sendable, Hashable {
    /// The token endpoint's URL.
    public var url: String
    /// The partner's client id for Google.
    public var clientID: String
    /// The client's secret; only its fingerprint ever reaches a report.
    public var clientSecret: String
    /// Also exchange a code with the credentials in HTTP Basic (`token.exchange-basic`).
    public var basic: Bool
    /// A protected resource a valid access token must open (`token.resource`).
    public var resourceURL: String?
    /// Run the slow check: a code older than 10 minutes must be refused (`token.code-expiry`).
    public var codeExpiry: Bool

    /// The token endpoint at `url` for `clientID`; the extras are off unless given.
    public init(url: String, clientID: String, clientSecret: String, basic: Bool = false, resourceURL: String? = nil, codeExpiry: Bool = false) {
        self.url = url
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.basic = basic
        self.resourceURL = resourceURL
        self.codeExpiry = codeExpiry
    }
}
