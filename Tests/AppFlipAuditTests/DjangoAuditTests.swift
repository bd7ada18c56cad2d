import AppFlipAudit
import AppFlipCore
import AppFlipHTTPClient
import AppFlipOAuth
import AppFlipTestSupport
import AsyncHTTPClient
import Testing
import ThirdPartyFixtures

/// The audit of a real third-party server, django-oauth-toolkit 3.4.1 (`Tests/ThirdPartyFixtures/django-oauth-toolkit`): its
/// `/o/authorize/` with alice's session cookie and its `/o/token/`, with what it reports pinned. Slow: Django
/// starts in seconds, and the audit runs in full.
@Suite(.slow) struct DjangoAuditTests {
    static let clientID = "appflip-audit-interop-client"
    static let clientSecret = "audit-interop-secret-0123456789abcdef"

    @Test("appflip audit of django-oauth-toolkit's /o/authorize/ and /o/token/", .timeLimit(.minutes(5)))
    func auditDjango() async throws {
        try await DjangoOAuthServer.run(
            clientID: Self.clientID,
            clientSecret: Self.clientSecret,
            password: "audit-interop-password-42",
            redirectURIs: AppFlipRedirectURI.all.map(\.string),
            lifetimeSeconds: 300
        ) { django in
            let session = try await django.signIn()
            let auditor = Auditor(
                authorization: AuthorizationEndpointTarget(
                    url: django.baseURL + "/o/authorize/",
                    clientID: Self.clientID,
                    scopes: ["profile"],
                    credential: .cookie(session)
                ),
                token: TokenEndpointTarget(
                    url: django.baseURL + "/o/token/",
                    clientID: Self.clientID,
                    clientSecret: Self.clientSecret,
                    revokeURL: django.baseURL + "/o/revoke_token/"
                )
            )
            let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .appFlipOAuth())
            let report = await auditor.run(httpClient: httpClient)
            try await httpClient.shutdown()
            let findings = report.results.filter { $0.outcome != .pass && $0.outcome != .skipped }
            #expect(
                findings.map { "\($0.check.id): \($0.outcome.rawValue)" } == [
                    // It lower-cases the redirect host before comparing (oauth-interop.md): exact matching is RFC 9700 §2.1.
                    "authorize.lookalike-redirect: fail",
                    // A replayed code gets invalid_grant, but the tokens issued for it keep working (RFC 6749 §4.1.2: SHOULD revoke).
                    "token.code-single-use: warning",
                    // Another registered redirect_uri at /o/token/ gets invalid_request ("Mismatching redirect URI"), not invalid_grant (§5.2).
                    "token.code-redirect-binding: fail",
                    // REFRESH_TOKEN_GRACE_PERIOD_SECONDS is 0 by default: a rotated-out refresh token dies at once.
                    "token.refresh-rotation: fail",
                    // oauthlib answers a failed HTTP Basic attempt 401 with `WWW-Authenticate: Bearer error="invalid_client"`:
                    // RFC 6749 §5.2 wants the scheme the client used, Basic.
                    "token.www-authenticate: fail",
                ],
                "\(findings.map { "\($0.check.id): \($0.reason)" })"
            )
            // Its comparison of the parsed URI also takes an empty port (`host:`) for none (RFC 3986 §6.2.3's
            // normalisation, where RFC 6749 §3.1.2.3 asks for simple string comparison).
            let lookalikes = report.result(.authorizeLookalikeRedirect).reason
            #expect(lookalikes.contains("2 of "), "\(lookalikes)")
            #expect(lookalikes.contains("lookalikes redirected to: the host in upper case"), "\(lookalikes)")
            #expect(lookalikes.contains("with an empty port"), "\(lookalikes)")
            // Another of the 12, registered for this client, gets invalid_request where RFC 6749 §5.2 says invalid_grant;
            // the code's own with a trailing slash (registered for no client) may get invalid_request, and no
            // redirect_uri is refused rightly.
            let binding = report.result(.tokenCodeRedirectBinding).reason
            #expect(binding.hasPrefix("1 of 17 not refused with HTTP 400 invalid_grant"), "\(binding)")
            #expect(binding.contains("Chromecast.dev got HTTP 400 error=invalid_request (\"Mismatching redirect URI.\")"), "\(binding)")
            #expect(report.result(.tokenWWWAuthenticate).reason.contains("WWW-Authenticate: Bearer"))
            // Body credentials work (Google's default) and so does Basic; RFC 7009 revocation holds.
            #expect(report.result(.tokenClientAuth).reason.contains("HTTP Basic (client_secret_basic) is accepted too"))
            #expect(report.result(.tokenRevoke).outcome == .pass)
            #expect(report.result(.tokenRefreshChain).outcome == .pass)
            #expect(report.exitStatus == 2)
        }
    }

    static func auditor(_ django: DjangoOAuthServer, cookie: String) -> Auditor {
        Auditor(
            authorization: AuthorizationEndpointTarget(
                url: django.baseURL + "/o/authorize/",
                clientID: clientID,
                scopes: ["profile"],
                credential: .cookie(cookie)
            ),
            token: TokenEndpointTarget(url: django.baseURL + "/o/token/", clientID: clientID, clientSecret: clientSecret)
        )
    }

    @Test("django-oauth-toolkit with its default, PKCE required: one failure, authorize.code", .timeLimit(.minutes(5)))
    func auditDjangoRequiringPKCE() async throws {
        try await DjangoOAuthServer.run(
            clientID: Self.clientID,
            clientSecret: Self.clientSecret,
            password: "audit-interop-password-42",
            redirectURIs: AppFlipRedirectURI.all.map(\.string),
            lifetimeSeconds: 300,
            defaults: true
        ) { django in
            let session = try await django.signIn()
            let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .appFlipOAuth())
            let report = await Self.auditor(django, cookie: session).run(httpClient: httpClient)

            // A sign-in cookie it does not know: its login page, the audit could not run.
            let signedOut = await Self.auditor(django, cookie: "sessionid=not-a-session").run(httpClient: httpClient)
            try await httpClient.shutdown()

            let findings = report.results.filter { $0.outcome != .pass && $0.outcome != .skipped }
            #expect(
                findings.map { "\($0.check.id): \($0.outcome.rawValue)" } == [
                    // Every App Flip request lacks code_challenge: refused, with a code when one is added.
                    "authorize.code: fail",
                    // The upper-case host is taken for the registered one (and redirected to with the PKCE error).
                    "authorize.lookalike-redirect: fail",
                ],
                "\(findings.map { "\($0.check.id): \($0.reason)" })"
            )
            #expect(report.result(.authorizeCode).reason.contains("requires PKCE"))
            #expect(report.result(.authorizeCode).reason.contains("error=invalid_request"), "\(report.result(.authorizeCode).reason)")
            #expect(report.result(.tokenExchange).reason.hasPrefix("no code to exchange"))
            #expect(report.exitStatus == 2)

            let unmet = signedOut.results.filter { $0.outcome != .pass && $0.outcome != .skipped }
            #expect(unmet.map { "\($0.check.id): \($0.outcome.rawValue)" } == ["authorize.sign-in: could-not-run"], "\(unmet.map(\.reason))")
            #expect(signedOut.result(.authorizeSignIn).reason.contains("/accounts/login/"), "\(signedOut.result(.authorizeSignIn).reason)")
            #expect(signedOut.exitStatus == 1)
        }
    }
}
