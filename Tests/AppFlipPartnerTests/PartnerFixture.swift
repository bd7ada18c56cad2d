import AppFlipClient
import AppFlipCore
import AppFlipDaemon
import AppFlipOAuth
import AppFlipProtocol
import AppFlipTesting
import AsyncHTTPClient
import Logging
import NIOConcurrencyHelpers

/// The partner app under test: `partner.test` with an `appflip` handler, in a real appflipd (appflipd's own
/// composition, through ``withTestDaemon``) with the embedded OAuth server on an ephemeral loopback port.
enum PartnerFixture {
    static let partnerLink = "https://partner.test/link/flip"
    static let clientID = "partner-test-client"
    static let clientSecret = "partner-test-secret-0123456789"

    static let oauthConfiguration = OAuthServerConfiguration(
        port: 0,
        clients: [
            RegisteredClient(
                id: clientID, secret: clientSecret, redirectURIs: AppFlipRedirectURI.all.map(\.string), scopes: ["profile", "devices"])
        ],
        users: [TestUser(username: "alice"), TestUser(username: "dave", disabled: true)]
    )

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

    static func app(handler: JSONValue) -> TestApp {
        TestApp(
            appID: "PARTNER001.test.partner", domains: ["applinks:partner.test"], components: [.object(["/": .string("/link/*")])],
            handler: .configured(handler))
    }

    /// Runs `body` against a daemon whose `partner.test` app has `handler`.
    static func run<Result: Sendable>(
        handler: JSONValue = handler(), _ body: @Sendable (TestDaemon) async throws -> Result
    ) async throws -> Result {
        try await withTestDaemon(apps: [app(handler: handler)], oauth: oauthConfiguration, body)
    }

    /// Loads an app file with `handler` as the daemon does at start; the configuration error, if any.
    static func loadError(handler: JSONValue, embedded: Bool = true) async throws -> AppFlipDaemon.ConfigurationError? {
        do {
            try await withTestDaemon(apps: [app(handler: handler)], oauth: embedded ? oauthConfiguration : nil) { _ in }
            return nil
        } catch let error as AppFlipDaemon.ConfigurationError {
            return error
        }
    }
}

extension TestDaemon {
    /// The embedded OAuth server of a ``PartnerFixture``.
    var oauth: EmbeddedAuthorizationServer { oauthServer! }

    /// The embedded server's Google-side token client.
    func tokenClient(secret: String = PartnerFixture.clientSecret) async throws -> TokenExchangeClient {
        TokenExchangeClient(
            tokenURL: try await oauth.baseURL() + "/token", clientID: PartnerFixture.clientID, clientSecret: secret, httpClient: httpClient!,
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
    }
}

/// A Google app registered over a test connection: it records every URL delivered to it.
struct RecordingGoogleApp: Sendable {
    let connection: AppFlipConnection
    let received: NIOLockedValueBox<[String]>

    static func register(on daemon: TestDaemon, bundleID: String = "com.google.OPA") async throws -> RecordingGoogleApp {
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
        clientID: String = PartnerFixture.clientID, scopes: [String] = ["profile"], state: String, redirectURI: String
    ) async throws -> Reply {
        let link = FlipLink.link(to: try RawURL(PartnerFixture.partnerLink), clientID: clientID, scopes: scopes, state: state, redirectURI: redirectURI)
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
