public import AppFlipCore

/// The partner's Android App Flip activity an audit checks, through appflipd: the intent's package and
/// action, what Google sends in it, and the Google identity the partner allows.
public struct AndroidAppTarget: Sendable, Hashable {
    /// `--android-package`.
    public var package: String
    /// `--android-action`.
    public var action: String
    /// `CLIENT_ID`.
    public var clientID: String
    /// `SCOPE`, at least one.
    public var scopes: [String]
    /// `REDIRECT_URI`.
    public var redirectURI: String
    /// The Google app's identity as the partner allows it (`--caller-package`, `--caller-fingerprint`).
    public var caller: AndroidCaller
    /// How long to wait for each start's reply.
    public var timeout: Duration

    /// Creates the target.
    public init(package: String, action: String, clientID: String, scopes: [String], redirectURI: String, caller: AndroidCaller, timeout: Duration) {
        self.package = package
        self.action = action
        self.clientID = clientID
        self.scopes = scopes
        self.redirectURI = redirectURI
        self.caller = caller
        self.timeout = timeout
    }
}
