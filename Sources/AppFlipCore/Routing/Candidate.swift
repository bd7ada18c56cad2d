/// One app that claims a URL's host, and what its association file decided.
public struct Candidate: Sendable {
    /// The candidate app's id.
    public let appID: String
    /// The entitlement entry through which the app claims the host.
    public let domain: AssociatedDomain
    /// What the app's AASA said about the URL.
    public let decision: AppDecision
    /// The app's route priority; higher wins among matches.
    public let priority: Int

    /// Creates a candidate for the route table's answer.
    public init(appID: String, domain: AssociatedDomain, decision: AppDecision, priority: Int) {
        self.appID = appID
        self.domain = domain
        self.decision = decision
        self.priority = priority
    }
}
