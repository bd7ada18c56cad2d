public import AppFlipConfiguration
public import AppFlipCore
public import AppFlipGoogle
import AppFlipOAuth
import AsyncHTTPClient
import Logging

/// An App Flip partner app for tests: appflipd's built-in `appflip` handler on `partner.test`, getting its
/// codes from the embedded OAuth server, whose one client accepts all 12 App Flip redirect URIs.
///
/// ```swift
/// try await TestPartner.run(handler: TestPartner.handler(outcome: "cancel")) { daemon in
///     let google = try await TestGoogleApp.register(on: daemon)
///     let reply = try await google.flip(state: "s", redirectURI: AppFlipRedirectURI.all[0].string)
/// }
/// ```
public enum TestPartner {
    /// The flip link, without the App Flip parameters.
    public static let link = "https://partner.test/link/flip"
    /// The partner app's id in the test daemon.
    public static let appID = "PARTNER001.test.partner"
    /// The partner's OAuth client id: the `client_id` Google sends and the embedded server knows.
    public static let clientID = "partner-test-client"
    /// That client's secret, for exchanging codes at the embedded server's /token.
    public static let clientSecret = "partner-test-secret-0123456789"

    /// A second client of the partner, for the audit's checks that one client's codes and tokens are refused
    /// to another.
    public static let secondClientID = "partner-test-second-client"
    /// The second client's secret.
    public static let secondClientSecret = "partner-test-second-secret-0123456789"

    /// The embedded OAuth server on an ephemeral loopback port: the two clients above, and the users `alice`
    /// and `dave` (disabled).
    public static let oauthConfiguration = OAuthServerConfiguration(
        port: 0,
        clients: [
            RegisteredClient(
                id: clientID,
                secret: clientSecret,
                redirectURIs: AppFlipRedirectURI.all.map(\.string) + [androidRedirectURI],
                scopes: ["profile", "devices"]
            ),
            RegisteredClient(
                id: secondClientID,
                secret: secondClientSecret,
                redirectURIs: AppFlipRedirectURI.all.map(\.string),
                scopes: ["profile", "devices"]
            ),
        ],
        users: [TestUser(username: "alice"), TestUser(username: "dave", disabled: true)]
    )

    /// The `appflip` handler's configuration, authorizing as `user` at the embedded server; `extra` keys are
    /// merged in.
    public static func handler(
        outcome: String? = nil,
        user: String = "alice",
        clientIDs: [String] = [clientID],
        extra: [String: JSONValue] = [:]
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

    /// The partner app with `handler`, claiming `https://partner.test/link/*`, and the Android app
    /// ``android`` whose App Flip activity takes ``androidAction``.
    public static func app(handler: JSONValue = handler()) -> TestApp {
        TestApp(
            appID: appID,
            domains: ["applinks:partner.test"],
            components: [.object(["/": .string("/link/*")])],
            handler: .configured(handler),
            android: android
        )
    }

    /// The partner's Android package.
    public static let androidPackage = "test.partner.app"
    /// The action of its App Flip activity, as entered in the console.
    public static let androidAction = "test.partner.APP_FLIP"
    /// The Google app's package, and the certificate the tests sign it with (Google publishes none).
    public static let google = AndroidCaller(
        package: "com.google.android.googlequicksearchbox",
        fingerprints: [Array(repeating: "AB", count: 32).joined(separator: ":")]
    )
    /// The `REDIRECT_URI` Google sends on Android in the tests: the client's web-flow redirect URI.
    public static let androidRedirectURI = "https://oauth-redirect.googleusercontent.com/r/partner-test"

    /// The partner's Android identity: `.AppFlipActivity`, exported, in the DEFAULT category.
    public static let android = AndroidIdentity(
        package: androidPackage,
        fingerprints: [Array(repeating: "12", count: 32).joined(separator: ":")],
        activities: [AndroidActivity(name: ".AppFlipActivity", actions: [androidAction], exported: true)]
    )

    /// The handler's `android` section: ``google`` (or `callers`) may start the flip.
    public static func androidSection(callers: [AndroidCaller] = [google]) -> JSONValue {
        .object([
            "callers": .array(
                callers.map { .object(["package": .string($0.package), "fingerprints": .array($0.fingerprints.map(JSONValue.string))]) }
            )
        ])
    }

    /// Runs `body` against a daemon serving the partner app with `handler` and the embedded OAuth server.
    public static func run<Result: Sendable>(
        handler: JSONValue = handler(),
        _ body: @Sendable (TestDaemon) async throws -> Result
    ) async throws -> Result {
        try await withTestDaemon(apps: [app(handler: handler)], oauth: oauthConfiguration, body)
    }
}

extension TestDaemon {
    /// The embedded server's token endpoint, as Google's server calls it, for the ``TestPartner`` client.
    public func tokenClient(secret: String = TestPartner.clientSecret) async throws -> TokenEndpointClient {
        guard let oauthServer, let httpClient else { throw TestDaemonError(description: "this daemon runs no embedded OAuth server") }
        return TokenEndpointClient(
            tokenURL: try await oauthServer.baseURL() + "/token",
            clientID: TestPartner.clientID,
            clientSecret: secret,
            httpClient: httpClient,
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        )
    }
}
