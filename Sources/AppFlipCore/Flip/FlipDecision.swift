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
