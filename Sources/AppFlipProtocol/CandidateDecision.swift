/// One app's decision about a URL, as `explain` reports it.
public struct CandidateDecision: Sendable, Hashable, Codable {
    public var app: String
    public var domain: String
    /// `match`, `exclude` or `no_match`.
    public var outcome: String
    public var rule: String
    public var details: Int?
    public var component: Int?

    public init(app: String, domain: String, outcome: String, rule: String, details: Int?, component: Int?) {
        self.app = app
        self.domain = domain
        self.outcome = outcome
        self.rule = rule
        self.details = details
        self.component = component
    }
}
