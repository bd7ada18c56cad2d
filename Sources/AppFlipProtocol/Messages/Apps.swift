public import AppFlipCore

/// One registered app, as `apps` lists it.
public struct AppInfo: Sendable, Hashable, Codable {
    /// `static` for an `apps.d` file, `live` for a registered connection.
    public enum Kind: String, Sendable, Hashable, Codable {
        case `static`, live
    }

    /// `TEAMID.bundle.id`.
    public var appID: String
    /// Where the app came from.
    public var kind: Kind
    /// The app's `applinks:` entries, as registered.
    public var domains: [String]
    /// `exec`, `builtin:accept`, `live`, or another handler kind.
    public var handler: String
    /// For static apps, the `apps.d` file it came from.
    public var source: String?
    /// For live apps, who registered it.
    public var peer: PeerInfo?
    /// The app's Android identity: package, signing fingerprints, activities.
    public var android: AndroidIdentity?

    /// Creates an entry; `source` is for static apps, `peer` for live ones.
    public init(
        appID: String,
        kind: Kind,
        domains: [String],
        handler: String,
        source: String? = nil,
        peer: PeerInfo? = nil,
        android: AndroidIdentity? = nil
    ) {
        self.appID = appID
        self.kind = kind
        self.domains = domains
        self.handler = handler
        self.source = source
        self.peer = peer
        self.android = android
    }
}

/// The reply to `apps`.
public struct AppsResult: Sendable, Hashable, Codable {
    /// Static apps first, then live apps, each sorted by app id.
    public var apps: [AppInfo]

    /// Creates the reply.
    public init(apps: [AppInfo]) {
        self.apps = apps
    }
}
