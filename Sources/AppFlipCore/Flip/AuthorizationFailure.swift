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
