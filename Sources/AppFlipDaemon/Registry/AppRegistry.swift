import AppFlipCore
import AppFlipProtocol
import HashTreeCollections
import NIOConcurrencyHelpers

/// Every registered app, static and live, and the route table built from them.
///
/// Routing reads an immutable ``Routes`` snapshot taken under a lock, so that a registration or a reload
/// never stalls handoffs already on their way. A live app coming or going changes the snapshot through
/// persistent hash tries, and ``RegistryIndex`` finds the apps it could conflict with without a scan, so a
/// registration's cost follows its own claims, not the number of apps; a reload rebuilds everything.
final class AppRegistry: Sendable {
    /// What one handoff routes against: an immutable snapshot, and a class, so that taking it under the
    /// lock costs one reference count instead of one per dictionary inside.
    final class Routes: Sendable {
        let table: RouteTable
        let handlers: TreeDictionary<String, any ActivityHandler>
        /// The apps `start` reaches, by Android package.
        let packages: TreeDictionary<String, AndroidApp>

        init(table: RouteTable, handlers: TreeDictionary<String, any ActivityHandler>, packages: TreeDictionary<String, AndroidApp>) {
            self.table = table
            self.handlers = handlers
            self.packages = packages
        }
    }

    private struct State {
        /// Where live apps' positions start: past any static app's index, so that they sort after them.
        static let firstLivePosition = 1 << 40

        var staticApps: [RegisteredApp]
        /// The app files the last load refused alone.
        var refused: [RefusedApp] = []
        /// Live apps by position, given in registration order.
        var liveApps: TreeDictionary<Int, RegisteredApp> = [:]
        var nextLivePosition = firstLivePosition
        /// Each connection's live apps' positions.
        var liveByConnection: TreeDictionary<ObjectIdentifier, [Int]> = [:]
        var index = RegistryIndex()
        /// What Android's resolution knows of the apps' past: install and verification times.
        var history = LinkHistory()
        var routes: Routes

        init(staticApps: [RegisteredApp]) {
            self.staticApps = staticApps
            self.routes = Routes(table: RouteTable([]), handlers: [:], packages: [:])
            rebuild()
        }

        /// Live apps in registration order.
        var orderedLiveApps: [RegisteredApp] {
            liveApps.keys.sorted().map { liveApps[$0]! }
        }

        /// Static apps, then live apps in registration order: the order conflicts are checked and routes built in.
        var orderedApps: [RegisteredApp] {
            staticApps + orderedLiveApps
        }

        func app(at position: Int) -> RegisteredApp {
            position < Self.firstLivePosition ? staticApps[position] : liveApps[position]!
        }

        mutating func rebuild() {
            index = RegistryIndex()
            for (position, app) in staticApps.enumerated() { index.insert(app, at: position) }
            for (position, app) in liveApps { index.insert(app, at: position) }
            let apps = orderedApps
            history.retain(packages: Set(apps.compactMap { $0.android?.package }))
            for app in apps { history.install(app) }
            routes = Routes(
                table: RouteTable(apps.compactMap(\.route)),
                handlers: TreeDictionary(apps.map { ($0.appID, $0.handler) }, uniquingKeysWith: { _, live in live }),
                packages: TreeDictionary(apps.compactMap { $0.androidApp(history) }, uniquingKeysWith: { _, live in live })
            )
        }

        mutating func addLive(_ app: RegisteredApp, connection: ObjectIdentifier) {
            let position = nextLivePosition
            nextLivePosition += 1
            liveApps[position] = app
            liveByConnection[connection, default: []].append(position)
            index.insert(app, at: position)
            history.install(app)
        }

        /// Removes a connection's live apps from the lists and the index, and returns them in order.
        mutating func removeLive(connection: ObjectIdentifier) -> [RegisteredApp] {
            guard let positions = liveByConnection.removeValue(forKey: connection) else { return [] }
            return positions.compactMap { position -> RegisteredApp? in
                guard let app = liveApps.removeValue(forKey: position) else { return nil }
                index.remove(app, at: position)
                if let package = app.android?.package, index.positions(ofPackage: package).isEmpty { history.uninstall(package: package) }
                return app
            }
        }

        /// Routes `app` in place of any app with its id or its package.
        mutating func route(_ app: RegisteredApp) {
            var handlers = routes.handlers
            handlers[app.appID] = app.handler
            var packages = routes.packages
            if let (package, android) = app.androidApp(history) { packages[package] = android }
            routes = Routes(table: app.route.map(routes.table.adding) ?? routes.table, handlers: handlers, packages: packages)
        }

        /// Stops routing `app`, once it has left the lists; an app with its id that it overrode is routed
        /// again, as ``rebuild()`` would pick it.
        mutating func unroute(_ app: RegisteredApp) {
            var handlers = routes.handlers
            handlers[app.appID] = nil
            var packages = routes.packages
            if let package = app.android?.package, packages[package]?.appID == app.appID { packages[package] = nil }
            routes = Routes(table: routes.table.removing(appID: app.appID), handlers: handlers, packages: packages)
            if let overridden = index.positions(of: app.appID).last { route(self.app(at: overridden)) }
            if let package = app.android?.package, routes.packages[package] == nil,
                let overridden = index.positions(ofPackage: package).last
            {
                // The package goes back to the app it overrode: an update, verified again.
                history.install(self.app(at: overridden))
                guard let (_, android) = self.app(at: overridden).androidApp(history) else { return }
                var packages = routes.packages
                packages[package] = android
                routes = Routes(table: routes.table, handlers: routes.handlers, packages: packages)
            }
        }
    }

    private let state: NIOLockedValueBox<State>

    init(staticApps: [RegisteredApp]) {
        state = NIOLockedValueBox(State(staticApps: staticApps))
    }

    var routes: Routes {
        state.withLockedValue { $0.routes }
    }

    /// Static apps first, then live apps, each sorted by app id, their link hosts' states those of the device
    /// `android` plays; and the app files the last load refused alone.
    func apps(on android: AndroidSettings) -> AppsResult {
        state.withLockedValue { state in
            let staticApps = state.staticApps.sorted { $0.appID < $1.appID }
            let liveApps = state.orderedLiveApps.sorted { $0.appID < $1.appID }
            return AppsResult(apps: (staticApps + liveApps).map { $0.info(on: android) }, refused: state.refused)
        }
    }

    /// How many static apps are loaded.
    var staticAppCount: Int {
        state.withLockedValue { $0.staticApps.count }
    }

    /// Replaces the static apps (a reload, or the artifacts read at start) and the app files refused with them;
    /// live apps stay.
    func replaceStaticApps(_ apps: [RegisteredApp], refused: [RefusedApp] = []) {
        state.withLockedValue { state in
            state.staticApps = apps
            state.refused = refused
            state.rebuild()
        }
    }

    /// Adds a live app if the policy allows its uid to take everything it claims.
    func registerLive(_ app: RegisteredApp, uid: UInt32?, policy: ClaimPolicy) throws(ErrorBody) {
        guard let uid, policy.mayRegister(uid: uid) else {
            throw ErrorBody(.registrationDenied, "uid \(uid.map(String.init) ?? "unknown") may not register live apps (claimPolicy.registerUIDs)")
        }
        if let package = app.android?.package, !policy.mayBe(package: package, uid: uid) {
            throw ErrorBody(.registrationDenied, "uid \(uid) may not register as the Android package \(package) (claimPolicy.androidPackages)")
        }
        guard case .live(_, let connection) = app.origin else {
            preconditionFailure("registerLive takes live apps only")
        }
        let outcome: Result<Void, ErrorBody> = state.withLockedValue { state in
            let mayOverride = policy.mayOverride(uid: uid)
            // Only an app with the same id or an overlapping claim can conflict: the index finds those, in
            // the order a scan of every app would meet them.
            let package = app.android?.package
            for position in state.index.candidates(appID: app.appID, package: package, claims: app.claims) {
                let other = state.app(at: position)
                let samePackage = package != nil && other.android?.package == package
                if let owner = other.liveOwner, owner.uid == uid, other.appID == app.appID || samePackage {
                    let what = other.appID == app.appID ? app.appID : "the Android package \(package ?? "")"
                    return .failure(
                        ErrorBody(
                            .claimConflict,
                            "\(what) is already registered by this uid on another connection (pid \(owner.pid))",
                            app: other.appID
                        )
                    )
                }
                if mayOverride { continue }
                if let owner = other.liveOwner, owner.uid == uid { continue }
                let ownerName = other.liveOwner.map { "the live app of uid \($0.uid) (pid \($0.pid))" } ?? "a static app"
                if other.appID == app.appID {
                    return .failure(ErrorBody(.claimConflict, "app id \(app.appID) belongs to \(ownerName)", app: other.appID))
                }
                if samePackage, let package {
                    return .failure(
                        ErrorBody(.claimConflict, "the Android package \(package) belongs to \(other.appID), \(ownerName)", app: other.appID)
                    )
                }
                for claim in app.claims {
                    if let taken = other.claims.first(where: claim.overlaps) {
                        return .failure(
                            ErrorBody(
                                .claimConflict,
                                "\(claim) overlaps \(taken), claimed by \(other.appID), \(ownerName)",
                                app: other.appID
                            )
                        )
                    }
                }
            }
            state.addLive(app, connection: connection)
            state.route(app)
            return .success(())
        }
        try outcome.get()
    }

    /// Removes the live app a connection registered, when it closes.
    func unregisterLive(connection: ObjectIdentifier) {
        state.withLockedValue { state in
            for app in state.removeLive(connection: connection) { state.unroute(app) }
        }
    }
}
