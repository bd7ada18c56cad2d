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
    /// How to end a sign-in session (`--sign-out-url`), for `token.refresh-outlives-session`.
    public var signOut: SignOut?

    /// Where and how a sign-in session ends, and which one.
    public struct SignOut: Sendable, Hashable {
        /// The partner's sign-out URL.
        public var url: String
        /// `POST` (the default: signing out changes state, RFC 9110 §9.2.1) or `GET`.
        public var method: String
        /// A second sign-in credential of the same user, whose session the check links with and ends, so
        /// that the audit's own credential stays signed in; nil: the audit's own credential is signed out,
        /// once every other check that needs it is done.
        public var session: SessionCredential?

        /// A sign-out at `url` by `method`, of `session` or of the audit's own credential.
        public init(url: String, method: String = "POST", session: SessionCredential? = nil) {
            self.url = url
            self.method = method
            self.session = session
        }
    }

    /// The endpoint at `url` for `clientID`, as the user `credential` proves.
    public init(url: String, clientID: String, scopes: [String], credential: SessionCredential?) {
        self.url = url
        self.clientID = clientID
        self.scopes = scopes
        self.credential = credential
    }
}
