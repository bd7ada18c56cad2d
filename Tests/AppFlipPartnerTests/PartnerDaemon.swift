import AppFlipClient
import AppFlipCore
import AppFlipDaemon
import AppFlipOAuth
import AppFlipPartner
import AppFlipProtocol
import AppFlipTesting
import AsyncHTTPClient
import FoundationEssentials
import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#endif

/// A real appflipd (in this process, on a temporary socket) with the `appflip` handler factory and a real
/// embedded OAuth server on an ephemeral loopback port, in one ServiceGroup, as appflipd composes them.
struct PartnerDaemon: Sendable {
    static let partnerLink = "https://partner.test/link/flip"
    static let clientID = "partner-test-client"
    static let clientSecret = "partner-test-secret-0123456789"
    static let noLogs = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    static let oauthConfiguration = OAuthServerConfiguration(
        port: 0,
        clients: [
            RegisteredClient(
                id: clientID, secret: clientSecret, redirectURIs: AppFlipRedirectURI.all.map(\.string), scopes: ["profile", "devices"])
        ],
        users: [TestUser(username: "alice"), TestUser(username: "dave", disabled: true)]
    )

    let directory: String
    let socketPath: String
    let oauth: EmbeddedAuthorizationServer
    let httpClient: HTTPClient

    /// The `appflip` handler configuration with embedded authorization as `user`.
    static func handler(
        outcome: String? = nil, user: String = "alice", clientIDs: [String] = [clientID], extra: [String: JSONValue] = [:]
    ) -> JSONValue {
        var object: [String: JSONValue] = [
            "clientIDs": .array(clientIDs.map(JSONValue.string)),
            "authorization": .object(["embedded": .object(["user": .string(user)])]),
            // Generous: only a hang should ever reach it, and parallel tests on 2 loaded cores are slow.
            "timeoutSeconds": .number(30),
        ]
        if let outcome { object["outcome"] = .string(outcome) }
        object.merge(extra) { $1 }
        return .object(["appflip": .object(object)])
    }

    /// Runs `body` against a daemon whose `partner.test` app has `handler`.
    static func run<Result: Sendable>(
        handler: JSONValue = handler(), _ body: @Sendable (PartnerDaemon) async throws -> Result
    ) async throws -> Result {
        let directory = try TestDirectory.make()
        defer { TestDirectory.remove(directory) }
        try writeApp(handler: handler, in: directory)
        var configuration = DaemonConfiguration()
        configuration.socket = directory + "/appflipd.sock"
        configuration.appsDirectory = directory + "/apps.d"
        let oauth = try EmbeddedAuthorizationServer(configuration: oauthConfiguration, logger: noLogs)
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .appFlipOAuth())
        let factories = BuiltinHandlerFactories.all + [AppFlipPartnerHandlerFactory(embeddedServer: oauth, httpClient: httpClient, logger: noLogs)]
        let (ready, readyContinuation) = AsyncStream.makeStream(of: Void.self)
        let daemon: DaemonService
        do {
            daemon = try DaemonService(
                configuration: configuration, listener: .path(configuration.socket!), handlerFactories: factories, logger: noLogs,
                onReady: { _ in readyContinuation.finish() })
        } catch {
            try await httpClient.shutdown()
            throw error
        }
        let group = ServiceGroup(configuration: .init(services: [oauth, daemon], logger: noLogs))
        let environment = PartnerDaemon(directory: directory, socketPath: configuration.socket!, oauth: oauth, httpClient: httpClient)
        let outcome: Swift.Result<Result, any Error> = await withTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try? await group.run() }
            for await _ in ready {}
            _ = try? await oauth.listeningPort()
            let outcome: Swift.Result<Result, any Error>
            do {
                outcome = .success(try await body(environment))
            } catch {
                outcome = .failure(error)
            }
            await group.triggerGracefulShutdown()
            await tasks.waitForAll()
            return outcome
        }
        try await httpClient.shutdown()
        return try outcome.get()
    }

    /// Loads an app file with `handler` as the daemon does at start; the configuration error, if any.
    static func loadError(handler: JSONValue, embedded: Bool = true) throws -> AppFlipDaemon.ConfigurationError? {
        let directory = try TestDirectory.make()
        defer { TestDirectory.remove(directory) }
        try writeApp(handler: handler, in: directory)
        var configuration = DaemonConfiguration()
        configuration.socket = directory + "/appflipd.sock"
        configuration.appsDirectory = directory + "/apps.d"
        let oauth = try EmbeddedAuthorizationServer(configuration: oauthConfiguration, logger: noLogs)
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .appFlipOAuth())
        defer { try? httpClient.syncShutdown() }
        let factory = AppFlipPartnerHandlerFactory(embeddedServer: embedded ? oauth : nil, httpClient: httpClient, logger: noLogs)
        do {
            _ = try DaemonService(configuration: configuration, listener: .path(configuration.socket!), handlerFactories: [factory], logger: noLogs)
            return nil
        } catch {
            return error
        }
    }

    private static func writeApp(handler: JSONValue, in directory: String) throws {
        mkdir(directory + "/apps.d", 0o755)
        let app: JSONValue = .object([
            "appID": .string("PARTNER001.test.partner"),
            "domains": .array([.string("applinks:partner.test")]),
            "association": .object(["applinks": .object(["details": .array([
                .object(["appIDs": .array([.string("PARTNER001.test.partner")]), "components": .array([.object(["/": .string("/link/*")])])]),
            ])])]),
            "handler": handler,
        ])
        try TestDirectory.write(app.compactJSON, to: directory + "/apps.d/partner.json", mode: 0o644)
    }

    func connect() async throws -> AppFlipConnection {
        try await AppFlipConnection.connect(to: socketPath, client: "test")
    }

    /// The embedded server's Google-side token client.
    func tokenClient(secret: String = PartnerDaemon.clientSecret) async throws -> TokenExchangeClient {
        TokenExchangeClient(
            tokenURL: try await oauth.baseURL() + "/token", clientID: Self.clientID, clientSecret: secret, httpClient: httpClient,
            logger: Self.noLogs)
    }
}

/// A Google app registered over a test connection: it records every URL delivered to it.
struct RecordingGoogleApp: Sendable {
    let connection: AppFlipConnection
    let received: NIOLockedValueBox<[String]>

    static func register(on daemon: PartnerDaemon, bundleID: String = "com.google.OPA") async throws -> RecordingGoogleApp {
        let connection = try await daemon.connect()
        let received = NIOLockedValueBox<[String]>([])
        _ = try await connection.register(
            RegisterRequest(
                appID: "EQHXZ8M8AV.\(bundleID)",
                domains: ["applinks:oauth-redirect.googleusercontent.com", "applinks:oauth-redirect-sandbox.googleusercontent.com"],
                components: [.object(["/": .string("/a/*")])]),
            handler: ImmediateLiveApp { push in
                received.withLockedValue { $0.append(push.activity.webpageURL ?? "") }
                return LiveAnswer(continue: true)
            })
        return RecordingGoogleApp(connection: connection, received: received)
    }

    var urls: [String] { received.withLockedValue { $0 } }

    /// Sends a flip link; the reply, whatever it is.
    func flip(
        clientID: String = PartnerDaemon.clientID, scopes: [String] = ["profile"], state: String, redirectURI: String
    ) async throws -> Reply {
        let link = FlipLink.link(to: try RawURL(PartnerDaemon.partnerLink), clientID: clientID, scopes: scopes, state: state, redirectURI: redirectURI)
        return try await open(link)
    }

    func open(_ link: String) async throws -> Reply {
        try await connection.send(.open(OpenRequest(activity: Activity(activityType: browsingWebActivityType, webpageURL: link)))).get()
    }
}

extension JSONValue {
    var objectValue: [String: JSONValue]? {
        if case .object(let object) = self { return object }
        return nil
    }
}
