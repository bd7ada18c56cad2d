/// What a partner app does with a flip link: exactly one of three outcomes.
public enum FlipDecision: Sendable, Hashable {
    /// Every check passed: obtain an authorization code for this request.
    case proceed(FlipRequest)
    /// The redirect URI and client id are verified but another parameter is missing or invalid: open the
    /// redirect URI with `error=invalid_request` (seed; RFC 6749 §4.1.2.1). `state` is echoed when exactly
    /// one valid UTF-8 state was received, even an empty one.
    case invalidRequest(redirectURI: AllowedRedirectURI, state: String?, description: String)
    /// Open nothing at all: the redirect URI or client id cannot be trusted (seed sample returns `false`;
    /// RFC 6749 §4.1.2.1: never redirect to an unverified URI).
    case decline(DeclineReason)

    /// The result URL to open for `.invalidRequest`; `nil` for the other outcomes.
    public var invalidRequestResultURL: String? {
        guard case .invalidRequest(let redirectURI, let state, let description) = self else { return nil }
        return FlipResult.error(.invalidRequest, description: description, state: state).url(appendingTo: redirectURI)
    }
}

/// A flip link that passed every check.
public struct FlipRequest: Sendable, Hashable {
    /// Byte-for-byte one of the policy's expected client ids.
    public let clientID: String
    /// The scopes, in the order received; never empty.
    public let scopes: [String]
    /// The nonce to echo byte for byte; never empty.
    public let state: String
    public let redirectURI: AllowedRedirectURI

    /// What to ask the partner's OAuth2 server for (step 3).
    public var authorizationRequest: AuthorizationRequest {
        AuthorizationRequest(clientID: clientID, redirectURI: redirectURI.string, scopes: scopes)
    }
}

/// Why a flip link is declined without any redirect.
public enum DeclineReason: Sendable, Hashable, CustomStringConvertible {
    /// `redirect_uri` is missing, empty, repeated or not UTF-8.
    case redirectURI(FlipLinkProblem)
    case redirectURINotAllowed(RedirectRefusal)
    /// `client_id` is missing, empty, repeated or not UTF-8.
    case clientID(FlipLinkProblem)
    /// `client_id` is not byte-for-byte one of the expected ids. The value is not repeated here.
    case clientIDNotExpected

    public var description: String {
        switch self {
        case .redirectURI(let problem): "declined without a redirect: \(problem)"
        case .redirectURINotAllowed(let refusal): "declined without a redirect: redirect_uri is not allowed: \(refusal)"
        case .clientID(let problem): "declined without a redirect: \(problem)"
        case .clientIDNotExpected: "declined without a redirect: client_id is not one of the expected client ids"
        }
    }
}
