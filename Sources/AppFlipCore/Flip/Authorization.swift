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

/// Step 3 of App Flip: the partner app obtains an authorization code from its OAuth2 server for the
/// signed-in user. The core never performs I/O, so whoever can reach a server (the embedded one, or the
/// user's own endpoint) conforms to this and is injected.
public protocol AuthorizationCodeSource: Sendable {
    func authorizationCode(for request: AuthorizationRequest) async throws(AuthorizationFailure) -> String
}

/// Why no code could be had, mapped to the App Flip error it must produce.
public struct AuthorizationFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// `cancelled` for transient failures (offline, timeout, sign-in failed), `unrecoverable` for denials.
    public var flipError: FlipErrorCode
    /// Exactly why, for the log and the trace. It must never contain a code, token, secret or cookie.
    public var reason: String

    /// Creates a failure that is answered to Google with `flipError`; `reason` goes to the log only.
    public init(_ flipError: FlipErrorCode, reason: String) {
        self.flipError = flipError
        self.reason = reason
    }

    /// `error_value: reason`, safe to log.
    public var description: String { "\(flipError.rawValue): \(reason)" }
}
