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
