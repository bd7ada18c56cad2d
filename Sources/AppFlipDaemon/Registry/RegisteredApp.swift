import AppFlipCore
import AppFlipProtocol

/// One app in the registry: its route, its Android identity, its handler, and where it came from.
struct RegisteredApp: Sendable {
    enum Origin: Sendable {
        /// Declared in an `apps.d` file.
        case configured(file: String)
        /// Registered over a connection, which owns it until it closes.
        case live(peer: PeerInfo?, connection: ObjectIdentifier)
    }

    let appID: String
    /// The links it claims; nil for an app that only speaks intents.
    var route: AppRoute?
    var domains: [String]
    var claims: [DomainClaim]
    /// The package it is, and the activities intents reach it through.
    var android: AndroidIdentity?
    /// Its App Links hosts' verdicts, for an app with an Android identity.
    var appLinks: AppLinkVerification?
    var handler: any ActivityHandler
    var origin: Origin

    init(
        appID: String,
        route: AppRoute?,
        domains: [String],
        claims: [DomainClaim],
        android: AndroidIdentity? = nil,
        appLinks: AppLinkVerification? = nil,
        handler: any ActivityHandler,
        origin: Origin
    ) {
        self.appID = appID
        self.route = route
        self.domains = domains
        self.claims = claims
        self.android = android
        self.appLinks = appLinks
        self.handler = handler
        self.origin = origin
    }

    var info: AppInfo {
        switch origin {
        case .configured(let file):
            AppInfo(appID: appID, kind: .static, domains: domains, handler: handler.kind, source: file, android: android)
        case .live(let peer, _):
            AppInfo(appID: appID, kind: .live, domains: domains, handler: handler.kind, peer: peer, android: android)
        }
    }

    /// The entry `start` finds the app by, for an app with an Android identity.
    var androidApp: (String, AndroidApp)? {
        android.map { ($0.package, AndroidApp(appID: appID, identity: $0, appLinks: appLinks, handler: handler)) }
    }

    var liveOwner: PeerInfo? {
        if case .live(let peer, _) = origin { return peer }
        return nil
    }
}

/// An app as `start` reaches it: by its Android package.
struct AndroidApp: Sendable {
    let appID: String
    let identity: AndroidIdentity
    let appLinks: AppLinkVerification?
    let handler: any ActivityHandler
}
