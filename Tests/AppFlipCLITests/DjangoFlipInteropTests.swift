import AppFlipCore
import AppFlipTestSupport
import AppFlipTesting
import Foundation
import Testing
import ThirdPartyFixtures

/// The whole flow against a real third-party OAuth2 server: `appflip flip` plays the Google app, the daemon's
/// `appflip` handler gets the code from django-oauth-toolkit 3.4.1's `/o/authorize/` with alice's session
/// cookie, and `appflip flip` exchanges it at django's `/o/token/`. Slow: Django starts in seconds.
@Suite(.slow) struct DjangoFlipInteropTests {
    static let clientID = "appflip-flip-interop-client"
    static let clientSecret = "flip-interop-secret-0123456789abcdef"
    static let password = "flip-interop-password-42"

    @Test("appflip flip through appflipd to django-oauth-toolkit's /o/authorize/ and /o/token/", .timeLimit(.minutes(5)))
    func flipAgainstDjango() async throws {
        try await DjangoOAuthServer.run(
            clientID: Self.clientID,
            clientSecret: Self.clientSecret,
            password: Self.password,
            redirectURIs: AppFlipRedirectURI.all.map(\.string),
            lifetimeSeconds: 300
        ) { django in
            let base = django.baseURL
            let session = try await django.signIn()
            let handler: JSONValue = .object([
                "appflip": .object([
                    "clientIDs": .array([.string(Self.clientID)]),
                    "authorization": .object([
                        "remote": .object([
                            "authorizeURL": .string("\(base)/o/authorize/"),
                            "credential": .object(["cookie": .string(session)]),
                            "timeoutSeconds": .number(45),
                        ])
                    ]),
                    // Generous: tests run in parallel on 2 loaded cores.
                    "timeoutSeconds": .number(60),
                ])
            ])
            let state = "django+interop &state=%41 😀"
            try await TestPartner.run(handler: handler) { daemon in
                let outcome = try await TestCommand.run(
                    "appflip",
                    [
                        "flip", "--socket", daemon.socketPath, "--link", TestPartner.link, "--client-id", Self.clientID,
                        "--scope", "profile", "--redirect-bundle", "com.google.Chromecast.dev", "--sandbox", "--state", state,
                        "--token-url", "\(base)/o/token/", "--client-secret", Self.clientSecret, "--timeout", "90", "--json",
                    ]
                )
                #expect(outcome.status == 0, "\(outcome.standardOutput)\(outcome.standardError)")
                let report = try JSONDecoder().decode(FlipCommandTests.Report.self, from: Data(outcome.standardOutput.utf8))
                #expect(report.failure == nil, "\(report.failure ?? "")")
                // Exit 0 with result "code" means the result link carried a code and this state byte for byte.
                #expect(report.result == "code")
                #expect(report.state == state)
                #expect(report.steps.map(\.status) == ["ok", "ok", "ok", "ok", "ok"])
                let tokens = try #require(report.tokens, "no token exchange at django's /o/token/")
                #expect(tokens.tokenType == "Bearer")
                #expect(tokens.refreshTokenIssued)
                #expect(tokens.violations == [])
                #expect(report.refreshed != nil, "django's refresh_token grant did not answer")
                #expect(!outcome.standardOutput.contains(session), "the session cookie reached the output")
            }
        }
    }
}
