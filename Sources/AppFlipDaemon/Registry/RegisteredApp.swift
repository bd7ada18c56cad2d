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
    /// The artifact its Android identity was read from, for a static app whose file names one.
    var artifact: AppArtifact?

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

    /// The app as `apps` lists it, its link hosts' states those of the device `android` plays.
    func info(on android: AndroidSettings) -> AppInfo {
        let states = self.android.flatMap { identity in
            identity.intentFilters.isEmpty ? nil : appLinks?.states(of: identity, on: android)
        }
        switch origin {
        case .configured(let file):
            return AppInfo(
                appID: appID,
                kind: .static,
                domains: domains,
                handler: handler.kind,
                source: file,
                android: self.android,
                domainVerification: states,
                artifact: artifact
            )
        case .live(let peer, _):
            return AppInfo(
                appID: appID,
                kind: .live,
                domains: domains,
                handler: handler.kind,
                peer: peer,
                android: self.android,
                domainVerification: states
            )
        }
    }

    /// The entry `start` and Android routing find the app by, for an app with an Android identity, with its
    /// place in the device's `history`.
    func androidApp(_ history: LinkHistory) -> (String, AndroidApp)? {
        android.map { identity in
            let (installed, verifiedAt) = history.entry(for: identity.package)
            return (
                identity.package,
                AndroidApp(appID: appID, identity: identity, appLinks: appLinks, handler: handler, installed: installed, verifiedAt: verifiedAt)
            )
        }
    }

    var liveOwner: PeerInfo? {
        if case .live(let peer, _) = origin { return peer }
        return nil
    }
}

/// An app as `start` and Android routing reach it: by its Android package.
struct AndroidApp: Sendable {
    let appID: String
    let identity: AndroidIdentity
    let appLinks: AppLinkVerification?
    let handler: any ActivityHandler
    /// When the package was first installed (``LinkHistory``).
    let installed: Int
    /// When its Android 6–11 status last became `always`, per verifier.
    let verifiedAt: [AppLinkVerifier: Int]

    /// The app as the resolver sees it on `verifier`'s device.
    func resolverApp(_ verifier: AppLinkVerifier) -> AppLinkResolver.App {
        let verifiedAt = self.verifiedAt[verifier]
        return appLinks?.app(identity, verifier: verifier, installed: installed, verifiedAt: verifiedAt)
            ?? AppLinkResolver.App(identity: identity, verdicts: [:], installed: installed, verifiedAt: verifiedAt)
    }
}
