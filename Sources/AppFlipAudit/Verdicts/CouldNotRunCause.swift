/// Why the audit's own input could not establish a need: each is could not run (exit status 1), never a
/// rule's failure, and docs/audit.md lists them all. Everything else a partner answers to a valid request is
/// judged by the rule it keeps or breaks.
public enum CouldNotRunCause: String, Sendable, Hashable, CaseIterable {
    /// appflipd, a host or a port does not answer, an answer broke a transport bound, a file is unreadable,
    /// or the whole run's `--timeout` ran out: reported in `unreachable`.
    case unreachable
    /// An endpoint answered a valid request with a server error (HTTP 5xx, or `server_error` and
    /// `temporarily_unavailable` in a redirect): it is down, and no rule can be judged on it.
    case serverError = "server-error"
    /// The sign-in credential was refused: HTTP 401 or 403, or a valid request sent to a login page or left
    /// at a page of the server that asks the user to act.
    case signInRefused = "sign-in-refused"
    /// The options contradict what the partner registered: the client id unknown to the authorization endpoint
    /// (a request error before any redirect), a `--scope` refused even alone, the client id and secret refused
    /// both ways at the token endpoint, a client not allowed the code grant.
    case contradictoryOptions = "contradictory-options"
    /// The app says its user cannot link now: `cancelled` or `unrecoverable` on iOS, `RESULT_CANCELED` or
    /// `ERROR_TYPE` 1 or 2 on Android, `access_denied` from the authorization endpoint (signed out, offline,
    /// a disabled account, consent denied).
    case userCannotLink = "user-cannot-link"
    /// No app of `--android-package` is installed on appflipd.
    case appNotInstalled = "app-not-installed"
    /// `--sign-out-url` answered, but the session it was to end still gets codes.
    case sessionNotEnded = "session-not-ended"

    /// The cause in a few words, for docs/audit.md's list.
    public var summary: String {
        switch self {
        case .unreachable:
            "appflipd, a host or a port does not answer, a transport bound was hit, a file is unreadable, or the run's --timeout ran out"
        case .serverError: "an endpoint answered a valid request with a server error (HTTP 5xx, or server_error or temporarily_unavailable)"
        case .signInRefused:
            "the sign-in credential was refused: 401, 403, or a valid request sent to a login page or left at a page that asks the user to act"
        case .contradictoryOptions:
            "the options contradict the partner's registration: an unknown client id, a --scope refused even alone, the client credentials refused both ways, a client not allowed the code grant"
        case .userCannotLink:
            "the app or endpoint says the user cannot link now: cancelled, unrecoverable, RESULT_CANCELED, ERROR_TYPE 1 or 2, access_denied"
        case .appNotInstalled: "no app of --android-package is installed on appflipd"
        case .sessionNotEnded: "--sign-out-url did not end the session: the authorization endpoint still gives its credential a code"
        }
    }
}
