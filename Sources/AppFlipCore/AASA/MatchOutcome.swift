/// What one app's association file says about one URL.
public enum MatchOutcome: String, Sendable, Hashable, Codable {
    /// A rule accepts the URL: the app opens it.
    case match
    /// A rule with `exclude: true` (or a legacy `NOT ` path) decided first: the app must not open it.
    case exclude
    /// No rule decided: the app has nothing to say about the URL.
    case noMatch = "no_match"
}
