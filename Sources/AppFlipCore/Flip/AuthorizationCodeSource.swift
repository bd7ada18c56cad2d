/// The three error values App Flip lets a partner app return to Google (seed: "Parameters used when the
/// authorization result is returned unsuccessfully"). Nothing else may ever be sent.
public enum FlipErrorCode: String, Sendable, Hashable, CaseIterable, Codable {
    /// Recoverable: Google falls back to the browser-based authorization URL.
    case cancelled
    /// Google aborts account linking.
    case unrecoverable
    /// The request parameters are invalid or missing.
    case invalidRequest = "invalid_request"
}

/// Step 3 of App Flip: the partner app obtains an authorization code from its OAuth2 server for the
/// signed-in user. The core never performs I/O, so whoever can reach a server (the embedded one, or the
/// user's own endpoint) conforms to this and is injected.
public protocol AuthorizationCodeSource: Sendable {
    func authorizationCode(for request: AuthorizationRequest) async throws(AuthorizationFailure) -> String
}

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

/// Why no code could be had, mapped to the App Flip error it must produce.
public struct AuthorizationFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// `cancelled` for transient failures (offline, timeout, sign-in failed), `unrecoverable` for denials.
    public var flipError: FlipErrorCode
    /// Exactly why, for the log and the trace. It must never contain a code, token, secret or cookie.
    public var reason: String

    public init(_ flipError: FlipErrorCode, reason: String) {
        self.flipError = flipError
        self.reason = reason
    }

    public var description: String { "\(flipError.rawValue): \(reason)" }
}
