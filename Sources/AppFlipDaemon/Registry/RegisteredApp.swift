import AppFlipCore
import AppFlipProtocol

/// One app in the registry: its route, its handler, and where it came from.
struct RegisteredApp: Sendable {
    enum Origin: Sendable {
        /// Declared in an `apps.d` file.
        case configured(file: String)
        /// Registered over a connection, which owns it until it closes.
        case live(peer: PeerInfo?, connection: ObjectIdentifier)
    }

    var route: AppRoute
    var domains: [String]
    var claims: [DomainClaim]
    var handler: any ActivityHandler
    var origin: Origin

    var appID: String { route.appID }

    var info: AppInfo {
        switch origin {
        case .configured(let file):
            AppInfo(appID: appID, kind: .static, domains: domains, handler: handler.kind, source: file)
        case .live(let peer, _):
            AppInfo(appID: appID, kind: .live, domains: domains, handler: handler.kind, peer: peer)
        }
    }

    var liveOwner: PeerInfo? {
        if case .live(let peer, _) = origin { return peer }
        return nil
    }
}
