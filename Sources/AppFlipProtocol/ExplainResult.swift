/// The reply to `explain`.
public struct ExplainResult: Sendable, Hashable, Codable {
    /// What routing decided.
    public enum Decision: String, Sendable, Hashable, Codable {
        /// `app` would receive the URL.
        case match
        /// `app` claims the host but its AASA excludes the URL.
        case exclude
        /// No app claims it.
        case noApp = "no_app"
    }

    /// The URL that was explained.
    public var url: String
    /// What `open` would do with the URL.
    public var decision: Decision
    /// The app that would receive it, or that excludes it.
    public var app: String?
    /// The deciding AASA rule, as an RFC 6901 pointer into the app's document.
    public var rule: String?
    /// Every app whose associated domains cover the host, in precedence order, with its own decision.
    public var candidates: [CandidateDecision]

    /// Creates the reply.
    public init(url: String, decision: Decision, app: String?, rule: String?, candidates: [CandidateDecision]) {
        self.url = url
        self.decision = decision
        self.app = app
        self.rule = rule
        self.candidates = candidates
    }
}
