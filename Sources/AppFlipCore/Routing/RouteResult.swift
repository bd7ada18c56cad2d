/// One app that claims a URL's host, and what its association file decided.
public struct Candidate: Sendable {
    public let appID: String
    /// The entitlement entry through which the app claims the host.
    public let domain: AssociatedDomain
    public let decision: AppDecision
    public let priority: Int

    public init(appID: String, domain: AssociatedDomain, decision: AppDecision, priority: Int) {
        self.appID = appID
        self.domain = domain
        self.decision = decision
        self.priority = priority
    }
}

/// Which app, if any, opens a URL.
public enum RouteResult: Sendable {
    /// The first candidate, in precedence order, whose file matches the URL.
    case matched(Candidate)
    /// No candidate matches, and this one (the first to do so) excludes the URL explicitly.
    case excluded(Candidate)
    /// No app claims the host, or none of those that do has a rule for the URL.
    case noApp
}
