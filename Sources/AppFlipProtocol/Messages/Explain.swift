import AppFlipCore

/// `explain`: the routing decision for a URL, without delivering it.
public struct ExplainRequest: Sendable, Hashable, Codable {
    /// The URL to route, as it would be sent in `open`.
    public var url: String

    /// Creates the request.
    public init(url: String) {
        self.url = url
    }
}

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

/// One app's decision about a URL, as `explain` reports it.
public struct CandidateDecision: Sendable, Hashable, Codable {
    /// The candidate's app id.
    public var app: String
    /// The `applinks:` entry through which the app claims the host.
    public var domain: String
    /// `match`, `exclude` or `no_match`.
    public var outcome: String
    /// The deciding AASA component, as an RFC 6901 pointer into the app's document; empty when nothing decided.
    public var rule: String
    /// The index of the deciding `details` entry, when one decided.
    public var details: Int?
    /// The index of the deciding component in that entry, when one decided.
    public var component: Int?

    /// Creates a decision.
    public init(app: String, domain: String, outcome: String, rule: String, details: Int?, component: Int?) {
        self.app = app
        self.domain = domain
        self.outcome = outcome
        self.rule = rule
        self.details = details
        self.component = component
    }
}
