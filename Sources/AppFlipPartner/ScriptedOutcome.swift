import AppFlipCore

/// What the partner handler does with a flip link that passed every check: the real thing (`approve`),
/// or one scripted failure, so that a Google-side implementation can be tested against each answer App
/// Flip allows.
public enum ScriptedOutcome: String, Sendable, Hashable, CaseIterable {
    /// Obtain a code from the authorization source and open `redirect_uri?code=…&state=…`.
    case approve
    /// Open `redirect_uri?error=cancelled&state=…`, as when the user backs out.
    case cancel
    /// Open `redirect_uri?error=unrecoverable&state=…`, as for a disabled account.
    case unrecoverable
    /// Open `redirect_uri?error=invalid_request&state=…`.
    case invalidRequest = "invalid_request"
    /// Answer `continue: false` and open nothing.
    case decline
    /// Never answer: the handler's own time limit ends the handoff with `timeout`.
    case hang

    /// The App Flip error a scripted error outcome sends.
    var flipError: FlipErrorCode? {
        switch self {
        case .cancel: .cancelled
        case .unrecoverable: .unrecoverable
        case .invalidRequest: .invalidRequest
        case .approve, .decline, .hang: nil
        }
    }
}
