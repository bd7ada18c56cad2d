/// One app the route table knows: who it is, which hosts it claims, and what its association file says.
public struct AppRoute: Sendable {
    /// The app's id, `TEAMID.bundle.id`, as its AASA `appIDs` name it.
    public let appID: String
    /// The app's `applinks:` entitlements: the hosts it claims.
    public let domains: [AssociatedDomain]
    /// The compiled AASA document that decides which URLs on those hosts the app takes.
    public let association: AssociationFile
    /// Breaks ties between apps claiming the same host the same way: lower wins. The caller assigns it
    /// (appflipd gives statically configured apps lower numbers than live registrations).
    public let priority: Int

    /// Creates a route; higher `priority` wins when two apps claim the same host.
    public init(appID: String, domains: [AssociatedDomain], association: AssociationFile, priority: Int) {
        self.appID = appID
        self.domains = domains
        self.association = association
        self.priority = priority
    }
}
