import AppFlipAudit
import AppFlipCore
import AppFlipGoogle
import AppFlipHTTPClient
import AppFlipOAuth
import AsyncHTTPClient
import FoundationEssentials
import Testing

/// The authorization- and token-endpoint checks against ``BrokenOAuthServer``: the conforming server
/// passes every check, and each bug fails (or, for a SHOULD, warns) exactly the check for it.
@Suite struct OAuthServerAuditTests {
    /// The rotation's delay in these tests: longer than `shortGrace`, short enough for fifty audits.
    static let rotationGrace = Duration.milliseconds(300)

    /// An audit of `server` with every target and option: the second client, and the sign-out of a second
    /// session (`ownSession`), or of the audit's own credential, last.
    static func audit(
        _ server: BrokenOAuthServer,
        concurrency: Int = Auditor.defaultConcurrency,
        secondClient: Bool = true,
        secondSecret: String = BrokenOAuthServer.secondClientSecret,
        signOut: Bool = true,
        ownSession: Bool = true
    ) async throws -> AuditReport {
        let scopes = server.bug?.scopes ?? ["profile"]
        return try await server.run { base in
            var token = TokenEndpointTarget(
                url: base + "/token",
                clientID: BrokenOAuthServer.clientID,
                clientSecret: BrokenOAuthServer.clientSecret,
                clientAuth: server.bug?.clientAuth ?? .post,
                resourceURL: base + "/resource",
                revokeURL: base + "/revoke"
            )
            if secondClient {
                token.secondClient = .init(id: BrokenOAuthServer.secondClientID, secret: secondSecret)
            }
            token.rotationGrace = rotationGrace
            var authorization = AuthorizationEndpointTarget(
                url: base + "/authorize",
                clientID: BrokenOAuthServer.clientID,
                scopes: scopes,
                credential: .cookie("session=signed-in")
            )
            if signOut { authorization.signOut = .init(url: base + "/signout", session: ownSession ? .cookie("session=linking") : nil) }
            var auditor = Auditor(authorization: authorization, token: token)
            auditor.concurrency = concurrency
            let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .appFlipOAuth())
            let report = await auditor.run(httpClient: httpClient)
            try await httpClient.shutdown()
            return report
        }
    }

    @Test(arguments: [1, 3]) func theAuthorizationEndpointNeverSeesMoreRequestsAtOnceThanTheBound(concurrency: Int) async throws {
        let server = BrokenOAuthServer(bug: nil, authorizeDelay: .milliseconds(20))
        let report = try await Self.audit(server, concurrency: concurrency)
        #expect(Self.findings(report) == [], "\(report.results.filter { $0.outcome != .pass }.map { "\($0.check.id): \($0.reason)" })")
        #expect(server.mostAuthorizeRequestsAtOnce <= concurrency)
        #expect(server.mostAuthorizeRequestsAtOnce >= 1)
    }

    /// Every outcome that is neither a pass nor a skip, as `id: outcome`.
    static func findings(_ report: AuditReport) -> [String] {
        report.results.filter { $0.outcome != .pass && $0.outcome != .skipped }.map { "\($0.check.id): \($0.outcome.rawValue)" }
    }

    @Test(arguments: [true, false]) func aConformingServerPassesEveryCheck(rotates: Bool) async throws {
        let report = try await Self.audit(BrokenOAuthServer(bug: nil, rotates: rotates))
        #expect(
            Self.findings(report) == [],
            "\(report.results.filter { $0.outcome != .pass && $0.outcome != .skipped }.map { "\($0.check.id): \($0.reason)" })"
        )
        #expect(report.unreachable == [])
        #expect(report.exitStatus == 0)
        let ran = report.results.filter { $0.outcome == .pass }.map(\.check)
        // Only the slow checks are skipped, rotation when nothing rotates, and HTTPS on the loopback interface.
        let loopback: Set<CheckSpec> = [.tokenCodeExpiry, .tokenRefreshAfterExpiry, .authorizeHTTPS, .tokenHTTPS]
        let skipped = rotates ? loopback : loopback.union([.tokenRefreshRotation])
        #expect(
            Set(ran) == Set(AuditCatalogue.all.filter { [.authorizationEndpoint, .tokenEndpoint].contains($0.target) && !skipped.contains($0) })
        )
        #expect(report.result(.tokenCodeExpiry).outcome == .skipped)
        // The replay's verdict stands on tokens shown working right before it.
        #expect(report.result(.tokenCodeSingleUse).reason.contains("working right before it, were revoked"))
        #expect(report.result(.tokenRefresh).reason.contains(rotates ? "a new access token" : "no new refresh token: allowed"))
    }

    /// Every bug an audit without `--slow` can find.
    static let bugsFoundWithoutSlow = OAuthBug.allCases.filter { $0 != .refreshNeedsLiveAccessToken }

    @Test(.serialized, arguments: bugsFoundWithoutSlow) func eachBugFailsExactlyItsCheck(bug: OAuthBug) async throws {
        let report = try await Self.audit(BrokenOAuthServer(bug: bug))
        #expect(
            Self.findings(report) == bug.findings,
            "\(report.results.filter { $0.outcome != .pass }.map { "\($0.check.id): \($0.reason)" })"
        )
        #expect(report.exitStatus == bug.exitStatus)
    }

    /// A family's finding names the exact mutation that got through (redacted where it is a secret's).
    @Test(
        .serialized,
        arguments: [
            (OAuthBug.clientIDFolded, CheckSpec.authorizeUnknownClient, "in its fullwidth form"),
            (.redirectAnyHostUnderParent, .authorizeLookalikeRedirect, "the host replaced by another host under googleusercontent.com"),
            (.truncatesLongState, .authorizeState, "2049 bytes"),
            (.codePrefix, .tokenInvalidCode, "its own code without its last character got tokens"),
            (.refreshAnyCase, .tokenInvalidRefresh, "a real refresh token in upper case got tokens"),
            (.racyCode, .tokenCodeSingleUse, "a code exchanged twice at once got tokens twice"),
            (.revokeIgnoresSecret, .tokenWrongSecret, "at the revocation"),
            (.refreshIgnoresSecret, .tokenWrongSecret, "at the refresh grant"),
            (.revokeNeedsHint, .tokenRevoke, "no token_type_hint still refreshes"),
            (.shortGrace, .tokenRefreshRotation, "after 0.3 seconds"),
            (.chainOfFour, .tokenRefreshChain, "linked users are unlinked at refresh 5"),
            (.codeAnyClient, .tokenCodeClientBinding, "the second client got tokens for Google's code"),
            (.revokesOtherClientsTokens, .tokenRefreshClientBinding, "the second client revoked Google's refresh token"),
            (.sessionBoundRefresh, .tokenRefreshOutlivesSession, "a user who signs out of the web is unlinked"),
            (.signOutIgnored, .tokenRefreshOutlivesSession, "the session did not end"),
        ]
    )
    func aFamilyFindingNamesTheMutationThatGotThrough(bug: OAuthBug, check: CheckSpec, words: String) async throws {
        let report = try await Self.audit(BrokenOAuthServer(bug: bug))
        #expect(report.result(check).reason.contains(words), "\(report.result(check).reason)")
        if bug == .codePrefix {
            // Exactly that one: every other mutation of the code was refused.
            #expect(report.result(check).reason.hasPrefix("1 of "), "\(report.result(check).reason)")
        }
    }

    @Test func theLifecycleChecksAreSkippedNamingTheirOptions() async throws {
        let report = try await Self.audit(BrokenOAuthServer(bug: nil), secondClient: false, signOut: false)
        #expect(Self.findings(report) == [])
        #expect(report.result(.tokenCodeClientBinding).reason == "no second client: give --second-client-id and --second-client-secret-file")
        #expect(report.result(.tokenRefreshClientBinding).reason == "no second client: give --second-client-id and --second-client-secret-file")
        #expect(report.result(.tokenRefreshOutlivesSession).reason == "no way to end the session: give --sign-out-url (with --authorize-url)")
        #expect(report.result(.tokenRefreshAfterExpiry).reason == "slow (over 10 minutes): give --slow")
    }

    /// The second client's credentials are the audit's input: refused, the check that shows them could not run.
    @Test func aRefusedSecondClientCouldNotRun() async throws {
        let report = try await Self.audit(BrokenOAuthServer(bug: nil), secondSecret: "not-its-secret")
        #expect(
            Self.findings(report) == ["token.code-client-binding: could-not-run"],
            "\(report.results.filter { $0.outcome != .pass }.map { "\($0.check.id): \($0.reason)" })"
        )
        #expect(report.result(.tokenCodeClientBinding).reason.contains("check --second-client-id and --second-client-secret-file"))
        #expect(report.result(.tokenRefreshClientBinding).reason == "needs token.code-client-binding")
        #expect(report.exitStatus == 1)
    }

    /// Without a second session, the audit's own is signed out, after every check that needs it.
    @Test func signingTheAuditsOwnSessionOutComesLast() async throws {
        let report = try await Self.audit(BrokenOAuthServer(bug: nil), ownSession: false)
        #expect(Self.findings(report) == [], "\(report.results.filter { $0.outcome != .pass }.map { "\($0.check.id): \($0.reason)" })")
        #expect(report.result(.tokenRefreshOutlivesSession).outcome == .pass)
        let broken = try await Self.audit(BrokenOAuthServer(bug: .sessionBoundRefresh), ownSession: false)
        #expect(Self.findings(broken) == ["token.refresh-outlives-session: fail"])
    }

    @Test func eachFindingSaysItsCauseWithTheEvidence() async throws {
        let basicOnly = try await Self.audit(BrokenOAuthServer(bug: .basicOnly))
        let auth = basicOnly.result(.tokenClientAuth)
        // The server's error and error_description, and the method the other checks go on with.
        #expect(auth.reason.contains("error=invalid_client (\"refused by the broken server\")"), "\(auth.reason)")
        #expect(auth.reason.contains("so the other checks use it"), "\(auth.reason)")
        #expect(auth.evidence.allSatisfy { $0.contains("[client auth: ") }, "\(auth.evidence)")

        let chain = try await Self.audit(BrokenOAuthServer(bug: .retiresWithoutSuccessor)).result(.tokenRefreshChain)
        #expect(chain.reason.hasPrefix("linked users are unlinked at refresh 2"), "\(chain.reason)")
        #expect(chain.evidence.count == 2, "\(chain.evidence)")

        let pkce = try await Self.audit(BrokenOAuthServer(bug: .requiresPKCE))
        #expect(pkce.result(.authorizeCode).reason.contains("requires PKCE"), "\(pkce.result(.authorizeCode).reason)")
        // The Location is shown with its parameters: the error it carried is not mistaken for success.
        #expect(pkce.result(.authorizeCode).reason.contains("error=invalid_request&error_description=code_challenge+required"))
        #expect(pkce.result(.authorizeRedirectURIs).reason == "needs authorize.code")
        #expect(pkce.result(.tokenExchange).reason.hasPrefix("no code to exchange"))

        let signIn = try await Self.audit(BrokenOAuthServer(bug: .signInRefused)).result(.authorizeSignIn)
        #expect(signIn.reason.hasPrefix("could not run: the sign-in credential was refused"), "\(signIn.reason)")
        #expect(signIn.reason.contains("/accounts/login/"), "\(signIn.reason)")
    }

    @Test func noCodeTokenOrSecretReachesTheReport() async throws {
        let server = BrokenOAuthServer(bug: .reusableCode)
        let report = try await Self.audit(server)
        let secrets = server.issued + [BrokenOAuthServer.clientSecret]
        #expect(secrets.count > 20)
        for result in report.results {
            for text in [result.reason] + result.evidence {
                #expect(!secrets.contains { text.contains($0) }, "\(text)")
            }
        }
        // Every exchange is recorded, numbered in order, and redacted: no code, token or secret, nor the
        // Basic credentials' base64 or the session cookie.
        #expect(report.exchanges.map(\.id) == Array(1...report.exchanges.count))
        let encoded = secrets.map { Data("\(BrokenOAuthServer.clientID):\($0)".utf8).base64EncodedString() } + ["signed-in"]
        for exchange in report.exchanges {
            let request = exchange.request
            let text =
                ([request.url] + (request.headers + request.form).map { "\($0.name): \($0.value)" } + [exchange.response?.body ?? ""]
                + (exchange.response?.headers ?? []).map { "\($0.name): \($0.value)" }).joined(separator: "\n")
            #expect(!(secrets + encoded).contains { text.contains($0) }, "#\(exchange.id) \(exchange.purpose): \(text)")
        }
    }

    /// The token endpoint's checks with `--slow`, its wait shortened to `wait`, on codes from the server's
    /// authorization endpoint.
    static func slowTokenAudit(_ server: BrokenOAuthServer, wait: Duration) async throws -> [AuditResult] {
        try await server.run { base in
            let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .appFlipOAuth())
            var audit = TokenEndpointAudit(
                target: TokenEndpointTarget(
                    url: base + "/token",
                    clientID: BrokenOAuthServer.clientID,
                    clientSecret: BrokenOAuthServer.clientSecret,
                    codeExpiry: true
                ),
                redirectURI: AppFlipRedirectURI(app: .assistant, variant: .production, environment: .production),
                httpClient: httpClient
            )
            audit.codeExpiryWait = wait
            let codes = AuthorizationEndpointAudit(
                target: AuthorizationEndpointTarget(
                    url: base + "/authorize",
                    clientID: BrokenOAuthServer.clientID,
                    scopes: ["profile"],
                    credential: .cookie("session=signed-in")
                ),
                redirectURI: audit.redirectURI,
                httpClient: httpClient
            )
            let results = try await audit.run(codes: codes)
            try await httpClient.shutdown()
            return results
        }
    }

    /// RFC 6749 §4.1.2 recommends ten minutes at most: a code still taken after the wait (here shortened) is a
    /// warning, not a failure. The broken server never expires a code.
    @Test func aCodeTakenAfterTheWaitIsAWarning() async throws {
        let results = try await Self.slowTokenAudit(BrokenOAuthServer(bug: nil), wait: .milliseconds(1))
        let expiry = try #require(results.first { $0.check == .tokenCodeExpiry })
        #expect(expiry.outcome == .warning, "\(expiry.reason)")
        #expect(expiry.reason.hasPrefix("a code 0.001 seconds old got tokens"), "\(expiry.reason)")
    }

    /// `token.refresh-after-expiry` (`--slow`, its wait shortened here): access tokens that live one second,
    /// and a refresh once the newest has expired. The conforming server refreshes; the broken one refuses.
    @Test(arguments: [nil, OAuthBug.refreshNeedsLiveAccessToken])
    func aRefreshMustWorkOnceTheAccessTokenExpired(bug: OAuthBug?) async throws {
        let results = try await Self.slowTokenAudit(BrokenOAuthServer(bug: bug, accessTokenLifetime: 1), wait: .seconds(3))
        let check = try #require(results.first { $0.check == .tokenRefreshAfterExpiry })
        #expect(check.outcome == (bug == nil ? .pass : .fail), "\(check.reason)")
        if bug != nil {
            #expect(check.reason.hasPrefix("once the access token expired ("), "\(check.reason)")
            #expect(check.reason.contains("invalid_grant"), "\(check.reason)")
        }
    }

    @Test func anUnreachableEndpointIsExitStatusOneAndSaysWhich() async throws {
        // Port 9 (discard) on the loopback: nothing listens there in the test environment.
        let auditor = Auditor(
            authorization: AuthorizationEndpointTarget(url: "http://127.0.0.1:9/authorize", clientID: "c", scopes: ["profile"], credential: nil),
            token: TokenEndpointTarget(url: "http://127.0.0.1:9/token", clientID: "c", clientSecret: "s")
        )
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .appFlipOAuth())
        let report = await auditor.run(httpClient: httpClient)
        try await httpClient.shutdown()
        #expect(report.exitStatus == 1)
        #expect(
            report.unreachable == [
                "connection to the authorization endpoint http://127.0.0.1:9/authorize refused: nothing listens there",
                "connection to the token endpoint http://127.0.0.1:9/token refused: nothing listens there",
            ]
        )
        #expect(report.result(.authorizeRedirectURIs).outcome == .skipped)
        // Without a code source the checks that need none still try the token endpoint, which is down too.
        #expect(report.result(.tokenExchange).outcome == .skipped)
        #expect(report.result(.tokenInvalidRefresh).reason.contains("http://127.0.0.1:9/token refused"))
    }
}
