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
