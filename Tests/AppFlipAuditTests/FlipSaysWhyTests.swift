import AppFlipAudit
import AppFlipClient
import AppFlipCore
import AppFlipGoogle
import AppFlipOAuth
import AppFlipTesting
import Logging
import Testing

/// `appflip flip`'s checks that the audit's broken variants exercise too: a result opened without
/// universal-links-only is a violation, a URL that is not the redirect_uri is reported as such (never as a
/// routing error), and a refresh answer without a new refresh token is no violation.
@Suite struct FlipSaysWhyTests {
    static let noLogs = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
    static let redirect = AppFlipRedirectURI.all.first { $0.bundleID == "com.google.OPA" && $0.environment == .production }!

    static func flip(link: String, daemon: TestDaemon, tokenEndpoint: TokenEndpoint?) async throws -> FlipReport {
        let runner = FlipRunner(
            partnerLink: try RawURL(link),
            clientID: TestPartner.clientID,
            scopes: ["profile"],
            state: "a+b/c==",
            redirectURI: redirect,
            tokenEndpoint: tokenEndpoint,
            timeout: .seconds(30)
        )
        let connection = try await daemon.connect()
        let google = try await GoogleApp.register(on: connection, bundleID: "com.google.OPA")
        let report = await runner.run(connection: connection, google: google, events: nil, httpClient: daemon.httpClient, logger: noLogs)
        await connection.close()
        return report
    }

    @Test func aResultOpenedWithoutUniversalLinksOnlyIsAViolation() async throws {
        try await withTestDaemon(oauth: TestPartner.oauthConfiguration) { daemon in
            let report = try await LivePartner.run(bug: .notUniversalLinksOnly, daemon: daemon) {
                try await Self.flip(link: LivePartner.link, daemon: daemon, tokenEndpoint: nil)
            }
            #expect(report.exitStatus == 2)
            #expect(report.violations.contains { $0.contains("without universal-links-only") }, "\(report.violations)")
        }
    }

    @Test func aURLThatIsNotTheRedirectURIIsNamedWithTheDifference() async throws {
        try await withTestDaemon(oauth: TestPartner.oauthConfiguration) { daemon in
            let report = try await LivePartner.run(bug: .extraPathSegment, daemon: daemon) {
                try await Self.flip(link: LivePartner.link, daemon: daemon, tokenEndpoint: nil)
            }
            #expect(report.exitStatus == 2)
            let failure = try #require(report.failure)
            #expect(failure.contains("opened https://oauth-redirect.googleusercontent.com/a/com.google.OPA/extra?code="), "\(failure)")
            #expect(
                failure.contains(", not the redirect_uri https://oauth-redirect.googleusercontent.com/a/com.google.OPA: it adds \"/extra\""),
                "\(failure)"
            )
            #expect(!failure.contains("no_app"))
        }
    }

    @Test func aDeclineSaysWhy() async throws {
        try await TestPartner.run { daemon in
            var runner = FlipRunner(
                partnerLink: try RawURL(TestPartner.link),
                clientID: "someone-else",
                scopes: ["profile"],
                state: "s",
                redirectURI: Self.redirect,
                tokenEndpoint: nil,
                timeout: .seconds(30)
            )
            runner.refreshes = false
            let connection = try await daemon.connect()
            let google = try await GoogleApp.register(on: connection, bundleID: "com.google.OPA")
            let report = await runner.run(connection: connection, google: google, events: nil, httpClient: nil, logger: Self.noLogs)
            await connection.close()
            #expect(report.exitStatus == 1)
            #expect(
                report.failure?.hasSuffix("opened nothing: declined without a redirect: client_id is not one of the expected client ids") == true,
                "\(report.failure ?? "")"
            )
        }
    }

    @Test func aRefreshWithoutANewRefreshTokenIsNoViolation() async throws {
        // The built-in partner handler gets its codes from a server that keeps refresh tokens (no rotation).
        let server = BrokenOAuthServer(bug: nil, rotates: false, clientID: TestPartner.clientID)
        try await server.run { base in
            let handler: JSONValue = .object([
                "appflip": .object([
                    "clientIDs": .array([.string(TestPartner.clientID)]),
                    "authorization": .object([
                        "remote": .object([
                            "authorizeURL": .string(base + "/authorize"),
                            "credential": .object(["cookie": .string("session=signed-in")]),
                        ])
                    ]),
                    "timeoutSeconds": .number(30),
                ])
            ])
            try await TestPartner.run(handler: handler) { daemon in
                let report = try await Self.flip(
                    link: TestPartner.link,
                    daemon: daemon,
                    tokenEndpoint: TokenEndpoint(url: base + "/token", clientSecret: BrokenOAuthServer.clientSecret)
                )
                #expect(report.exitStatus == 0, "\(report.failure ?? "") \(report.violations)")
                #expect(report.refreshed?.refreshTokenIssued == false)
                #expect(report.refreshed?.violations == [])
            }
        }
    }
}
