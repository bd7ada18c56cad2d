/// Which app, if any, opens a URL.
public enum RouteResult: Sendable {
    /// The first candidate, in precedence order, whose file matches the URL.
    case matched(Candidate)
    /// No candidate matches, and this one (the first to do so) excludes the URL explicitly.
    case excluded(Candidate)
    /// No app claims the host, or none of those that do has a rule for the URL.
    case noApp
}
