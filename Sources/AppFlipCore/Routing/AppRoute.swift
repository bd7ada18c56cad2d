/// One app the route table knows: who it is, which hosts it claims, and what its association file says.
public struct AppRoute: Sendable {
    public let appID: String
    public let domains: [AssociatedDomain]
    public let association: AssociationFile
    /// Breaks ties between apps claiming the same host the same way: lower wins. The caller assigns it
    /// (appflipd gives statically configured apps lower numbers than live registrations).
    public let priority: Int

    public init(appID: String, domains: [AssociatedDomain], association: AssociationFile, priority: Int) {
        self.appID = appID
        self.domains = domains
        self.association = association
        self.priority = priority
    }
}
