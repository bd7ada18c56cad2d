public import AppFlipCore

/// The partner app an audit checks, as appflipd routes its flip link: whatever handler claims the link.
public struct PartnerAppTarget: Sendable, Hashable {
    /// The partner's universal link, without the App Flip parameters.
    public var link: RawURL
    /// Google's client id at the partner.
    public var clientID: String
    /// The scopes Google asks for.
    public var scopes: [String]
    /// How long one flip may take, from the link sent to appflipd's reply.
    public var timeout: Duration

    /// The partner app behind `link` for `clientID` and `scopes`.
    public init(link: RawURL, clientID: String, scopes: [String], timeout: Duration = .seconds(30)) {
        self.link = link
        self.clientID = clientID
        self.scopes = scopes
        self.timeout = timeout
    }
}
