import AppFlipProtocol
import Testing

@testable import AppFlipDaemon

/// The registry's indexed registration against a scan of every app, the way it was checked before it had
/// an index: over many random registrations and closes, on hosts nested inside each other, every outcome
/// (the error, word for word, or the registration), the app list and the routed handlers agree.
@Suite struct AppRegistryTests {
    /// A handler that only names the app it belongs to.
    struct NamedHandler: ActivityHandler {
        let kind: String
        func handle(_ handoff: Handoff) {}
    }

    /// Hosts under, above and beside each other, so that every kind of overlap comes up.
    static let hosts = ["test", "a.test", "b.a.test", "c.b.a.test", "x.test", "a.x.test", "other"]
    static let appIDs = ["T.one", "T.two", "T.three", "T.four"]

    static func app(_ appID: String, _ domains: [String], number: Int, origin: RegisteredApp.Origin) throws -> RegisteredApp {
        let association = Array(#"{"applinks":{"details":[{"appIDs":["\#(appID)"],"components":[{"/":"*"}]}]}}"#.utf8)
        let (route, _) = try AppRouteBuilder.route(appID: appID, domains: domains, associationJSON: association, priority: 0)
        return RegisteredApp(
            appID: appID,
            route: route,
            domains: domains,
            claims: domains.compactMap(DomainClaim.init),
            handler: NamedHandler(kind: "\(appID)#\(number)"),
            origin: origin
        )
    }

    /// The check as a scan, with the registry's words: the first app, static then live in registration
    /// order, that conflicts.
    static func scan(_ app: RegisteredApp, uid: UInt32, policy: ClaimPolicy, apps: [RegisteredApp]) -> ErrorBody? {
        let mayOverride = policy.overrideUIDs.contains(uid)
        for other in apps {
            if let owner = other.liveOwner, owner.uid == uid, other.appID == app.appID {
                return ErrorBody(
                    .claimConflict,
                    "\(app.appID) is already registered by this uid on another connection (pid \(owner.pid))",
                    app: other.appID
                )
            }
            if mayOverride { continue }
            if let owner = other.liveOwner, owner.uid == uid { continue }
            let ownerName = other.liveOwner.map { "the live app of uid \($0.uid) (pid \($0.pid))" } ?? "a static app"
            if other.appID == app.appID {
                return ErrorBody(.claimConflict, "app id \(app.appID) belongs to \(ownerName)", app: other.appID)
            }
            for claim in app.claims {
                if let taken = other.claims.first(where: claim.overlaps) {
                    return ErrorBody(.claimConflict, "\(claim) overlaps \(taken), claimed by \(other.appID), \(ownerName)", app: other.appID)
                }
            }
        }
        return nil
    }

    @Test func indexedRegistrationAgreesWithAScanOfEveryApp() throws {
        var random = SplitMix64(seed: 0x5EED)
        func domains() -> [String] {
            (0..<Int.random(in: 1...2, using: &random)).map { _ in
                "applinks:" + (Bool.random(using: &random) ? "*." : "") + Self.hosts.randomElement(using: &random)!
            }
        }
        var number = 0
        let statics = try (0..<3).map { index in
            number += 1
            return try Self.app(Self.appIDs[index], domains(), number: number, origin: .configured(file: "\(index).json"))
        }
        let registry = AppRegistry(staticApps: statics)
        let policy = ClaimPolicy(overrideUIDs: [3])
        let owners = (0..<4).map { _ in ConnectionStandIn() }
        let connections = owners.map(ObjectIdentifier.init)
        // The model: every live app in registration order, with its connection.
        var live: [(app: RegisteredApp, connection: ObjectIdentifier)] = []
        var registered = 0
        var refused = 0
        for _ in 0..<3000 {
            if Int.random(in: 0..<5, using: &random) == 0 {
                let connection = connections.randomElement(using: &random)!
                registry.unregisterLive(connection: connection)
                live.removeAll { $0.connection == connection }
            } else {
                number += 1
                let uid = UInt32.random(in: 1...3, using: &random)
                let connection = connections.randomElement(using: &random)!
                let peer = PeerInfo(uid: uid, gid: uid, pid: Int32(uid))
                let app = try Self.app(
                    Self.appIDs.randomElement(using: &random)!,
                    domains(),
                    number: number,
                    origin: .live(peer: peer, connection: connection)
                )
                let expected = Self.scan(app, uid: uid, policy: policy, apps: statics + live.map(\.app))
                do {
                    try registry.registerLive(app, uid: uid, policy: policy)
                    #expect(expected == nil, "registered, but a scan refuses: \(expected?.message ?? "")")
                    live.append((app, connection))
                    registered += 1
                } catch {
                    #expect(error.message == expected?.message)
                    #expect(error.app == expected?.app)
                    refused += 1
                }
            }
            let model = statics.sorted { $0.appID < $1.appID } + live.map(\.app).sorted { $0.appID < $1.appID }
            #expect(registry.apps(on: AndroidSettings()).apps.map(\.appID) == model.map(\.appID))
            // The routed handler for each id is the last app with it, as a rebuild picks it.
            var handlers: [String: String] = [:]
            for app in statics + live.map(\.app) { handlers[app.appID] = app.handler.kind }
            let routed = registry.routes.handlers
            #expect(Dictionary(uniqueKeysWithValues: routed.map { ($0.key, $0.value.kind) }) == handlers)
        }
        // Both branches ran often enough to mean something.
        #expect(registered > 100)
        #expect(refused > 100)
        withExtendedLifetime(owners) {}
    }
}

/// A class only for distinct `ObjectIdentifier`s standing in for connections.
private final class ConnectionStandIn {}
