import AppFlipConfiguration
import AppFlipCore
import AppFlipDaemon
import AppFlipTesting
import Testing

/// An `appflip` handler configuration is validated when the app file loads, and every error names the field.
@Suite struct PartnerConfigurationTests {
    static func appflip(_ object: [String: JSONValue]) -> JSONValue { .object(["appflip": .object(object)]) }
    static let embedded: JSONValue = .object(["embedded": .object(["user": .string("alice")])])
    static let client: JSONValue = .array([.string(TestPartner.clientID)])

    /// Starts a daemon whose partner app has `handler`, as appflipd loads it; the configuration error, if any.
    static func loadError(handler: JSONValue, embedded: Bool = true) async throws -> ConfigurationError? {
        do {
            try await withTestDaemon(apps: [TestPartner.app(handler: handler)], oauth: embedded ? TestPartner.oauthConfiguration : nil) { _ in }
            return nil
        } catch let error as ConfigurationError {
            return error
        }
    }

    @Test func theDefaultsLoad() async throws {
        #expect(try await Self.loadError(handler: TestPartner.handler()) == nil)
        let remote: JSONValue = .object([
            "remote": .object([
                "authorizeURL": .string("https://auth.partner.test/authorize"),
                "credential": .object(["header": .object(["name": .string("X-Session"), "value": .string("secret")])]),
                "timeoutSeconds": .number(3),
            ])
        ])
        #expect(try await Self.loadError(handler: Self.appflip(["clientIDs": .string("any"), "authorization": remote]), embedded: false) == nil)
    }

    static let broken: [(String, [String: JSONValue])] = [
        ("handler.appflip.clientIDs", ["authorization": embedded]),
        ("handler.appflip.clientIDs", ["clientIDs": .array([]), "authorization": embedded]),
        ("handler.appflip.clientIDs[0]", ["clientIDs": .array([.string("")]), "authorization": embedded]),
        ("handler.appflip.clientIDs", ["clientIDs": .string("not-in-oauth.json"), "authorization": embedded]),
        ("handler.appflip.authorization", ["clientIDs": client]),
        (
            "handler.appflip.authorization.embedded.user",
            ["clientIDs": client, "authorization": .object(["embedded": .object(["user": .string("mallory")])])]
        ),
        ("handler.appflip.authorization.magic", ["clientIDs": client, "authorization": .object(["magic": .object([:])])]),
        (
            "handler.appflip.authorization.remote.authorizeURL",
            ["clientIDs": client, "authorization": .object(["remote": .object(["authorizeURL": .string("ftp://x/")])])]
        ),
        (
            "handler.appflip.authorization.remote.credential",
            [
                "clientIDs": client,
                "authorization": .object([
                    "remote": .object([
                        "authorizeURL": .string("https://x/"), "credential": .object(["cookie": .string("a"), "bearer": .string("b")]),
                    ])
                ]),
            ]
        ),
        (
            "handler.appflip.redirectURIs",
            [
                "clientIDs": client, "authorization": embedded,
                "redirectURIs": .array([.string("https://oauth-redirect.googleusercontent.com/a/com.google.OPA?x=1")]),
            ]
        ),
        ("handler.appflip.outcome", ["clientIDs": client, "authorization": embedded, "outcome": .string("approve-ish")]),
        ("handler.appflip.errorDescription", ["clientIDs": client, "authorization": embedded, "errorDescription": .string("only with errors")]),
        ("handler.appflip.timeoutSeconds", ["clientIDs": client, "authorization": embedded, "timeoutSeconds": .number(0)]),
        ("handler.appflip.clientId", ["clientId": client, "clientIDs": client, "authorization": embedded]),
        ("handler.appflip.client_ids", ["client_ids": client, "authorization": embedded]),
        (
            "handler.appflip.authorization.embedded.username",
            ["clientIDs": client, "authorization": .object(["embedded": .object(["username": .string("alice")])])]
        ),
        (
            "handler.appflip.authorization.remote.timeoutSeconds",
            [
                "clientIDs": client,
                "authorization": .object(["remote": .object(["authorizeURL": .string("https://x/"), "timeoutSeconds": .string("5")])]),
            ]
        ),
        ("handler.appflip.android.callers", ["clientIDs": client, "authorization": embedded, "android": .object([:])]),
        ("handler.appflip.android.callers", ["clientIDs": client, "authorization": embedded, "android": .object(["callers": .array([])])]),
        (
            "handler.appflip.android.callers[0].fingerprints",
            [
                "clientIDs": client, "authorization": embedded,
                "android": .object([
                    "callers": .array([.object(["package": .string("com.google.android.googlequicksearchbox"), "fingerprints": .string("ab:cd")])])
                ]),
            ]
        ),
        (
            "handler.appflip.android.callers[0].package",
            [
                "clientIDs": client, "authorization": embedded,
                "android": .object([
                    "callers": .array([
                        .object(["package": .string("googlequicksearchbox"), "fingerprints": .string(TestPartner.google.fingerprints[0])])
                    ])
                ]),
            ]
        ),
        ("handler.appflip.android.caller", ["clientIDs": client, "authorization": embedded, "android": .object(["caller": .array([])])]),
    ]

    @Test(arguments: broken)
    func aBrokenConfigurationIsRefusedNamingTheField(field: String, object: [String: JSONValue]) async throws {
        let error = try #require(try await Self.loadError(handler: Self.appflip(object)))
        #expect(error.field == field, "\(error)")
    }

    @Test func anUnknownKeyIsNamedWithTheKnownKeysAndAnOldSpellingWithTheKeyToWrite() async throws {
        let unknown = try #require(
            try await Self.loadError(handler: Self.appflip(["clientIDs": Self.client, "authorization": Self.embedded, "scope": .string("x")]))
        )
        #expect(unknown.field == "handler.appflip.scope")
        let known = "clientIDs, redirectURIs, authorization, outcome, errorDescription, timeoutSeconds, android"
        #expect(unknown.message == "unknown key; known keys are \(known)")
        #expect(unknown.file.hasSuffix("/apps.d/app-100.json"))
        let renamed = try #require(
            try await Self.loadError(
                handler: Self.appflip(["clientIDs": Self.client, "authorization": Self.embedded, "error_description": .string("x")])
            )
        )
        #expect(renamed.field == "handler.appflip.error_description")
        #expect(renamed.message == "renamed; write `errorDescription` (configuration keys are camelCase)")
    }

    @Test func embeddedAuthorizationNeedsAnOAuthServer() async throws {
        let error = try #require(try await Self.loadError(handler: TestPartner.handler(), embedded: false))
        #expect(error.field == "handler.appflip.authorization.embedded")
        #expect(error.message.contains("--oauth-config"))
    }

    @Test func aCredentialNeverAppearsInAnError() async throws {
        let secret = "session-secret-value-42"
        let object: [String: JSONValue] = [
            "clientIDs": Self.client,
            "authorization": .object([
                "remote": .object([
                    "authorizeURL": .string("https://x/"),
                    "credential": .object(["header": .object(["name": .string("bad name"), "value": .string(secret)])]),
                ])
            ]),
        ]
        let error = try #require(try await Self.loadError(handler: Self.appflip(object)))
        #expect(error.field == "handler.appflip.authorization.remote.credential.header.name")
        #expect(!error.description.contains(secret))
    }
}
