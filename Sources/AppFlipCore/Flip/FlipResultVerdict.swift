/// The checker's answer: what the result says, and everything wrong with it.
public struct FlipResultVerdict: Sendable, Hashable, CustomStringConvertible {
    /// What the result link carries: an authorization code, or an App Flip error value.
    public enum Outcome: Sendable, Hashable, CustomStringConvertible {
        case code(String)
        case error(FlipErrorCode, description: String?)

        /// Safe to log: the code is replaced by its length.
        public var description: String {
            switch self {
            case .code(let code): "code (\(code.utf8.count) bytes, redacted)"
            case .error(let error, _): "error \(error.rawValue)"
            }
        }
    }

    /// The code or error, when the result carries exactly one of them, well formed; set even when the
    /// state is wrong, so that callers can say what was returned.
    public let outcome: Outcome?
    /// Rules broken: the result must not be trusted.
    public let violations: [FlipResultViolation]
    /// Departures from RFC 6749 that the seed's own sample makes, reported rather than silently accepted.
    public let deviations: [FlipResultDeviation]

    /// No violations and an outcome. Deviations do not fail a result.
    public var isValid: Bool { violations.isEmpty && outcome != nil }

    /// The outcome, then every violation and deviation; codes are redacted.
    public var description: String {
        var lines = [isValid ? "valid result: \(outcome.map(String.init(describing:)) ?? "")" : "invalid result"]
        lines += violations.map { "violation: \($0)" }
        lines += deviations.map { "deviation: \($0)" }
        return lines.joined(separator: "\n")
    }
}
