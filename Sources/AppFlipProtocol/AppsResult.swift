/// The reply to `apps`.
public struct AppsResult: Sendable, Hashable, Codable {
    /// Static apps first, then live apps, each sorted by app id.
    public var apps: [AppInfo]

    /// Creates the reply.
    public init(apps: [AppInfo]) {
        self.apps = apps
    }
}
