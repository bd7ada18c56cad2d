/// The reply to `explain`.
public struct ExplainResult: Sendable, Hashable, Codable {
    public enum Decision: String, Sendable, Hashable, Codable {
        /// `app` would receive the URL.
        case match
        /// `app` claims the host but its AASA excludes the URL.
        case exclude
        /// No app claims it.
        case noApp = "no_app"
    }

    public var url: String
    public var decision: Decision
    public var app: String?
    public var rule: String?
    /// Every app whose associated domains cover the host, in precedence order, with its own decision.
    public var candidates: [CandidateDecision]

    public init(url: String, decision: Decision, app: String?, rule: String?, candidates: [CandidateDecision]) {
        self.url = url
        self.decision = decision
        self.app = app
        self.rule = rule
        self.candidates = candidates
    }
}
