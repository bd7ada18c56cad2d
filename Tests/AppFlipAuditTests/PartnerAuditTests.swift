import AppFlipAudit
import AppFlipCore
import AppFlipHTTPClient
import AppFlipOAuth
import AppFlipTesting
import AsyncHTTPClient
import Testing

/// The partner-app checks through a real appflipd: the reference (the built-in partner handler and the
/// embedded server) passes the whole audit, and each ``LivePartner`` bug is reported by exactly its checks.
@Suite struct PartnerAuditTests {
    static func audit(
        link: String,
        daemon: TestDaemon,
        authorization: AuthorizationEndpointTarget? = nil,
        token: TokenEndpointTarget? = nil,
        association: AssociationTarget? = nil
    ) async throws
        -> AuditReport
    {
        let auditor = Auditor(
            partner: (PartnerAppTarget(link: try RawURL(link), clientID: TestPartner.clientID, scopes: ["profile", "devices"]), daemon.socketPath),
            authorization: authorization,
            token: token,
            association: association
        )
        return await auditor.run(httpClient: daemon.httpClient!)
    }

    static func findings(_ report: AuditReport) -> [String] {
        report.results.filter { $0.outcome != .pass && $0.outcome != .skipped }.map { "\($0.check.id): \($0.outcome.rawValue)" }
    }

    static func explain(_ report: AuditReport) -> String {
        report.results.filter { $0.outcome != .pass }.map { "\($0.check.id) \($0.outcome.rawValue): \($0.reason)" }.joined(separator: "\n")
    }

    /// Every target and option: the authorization endpoint with alice's session, the second client, and the
    /// sign-out of a session of alice's own (`POST /signout`).
    @Test func theReferencePassesTheWholeAudit() async throws {
        try await TestPartner.run { daemon in
            let server = try #require(daemon.oauthServer)
            let base = try await server.baseURL()
            let aasa = daemon.directory + "/partner-aasa.json"
            try TestDirectory.write(
                #"{"applinks":{"details":[{"appIDs":["\#(TestPartner.appID)"],"components":[{"/":"/link/*"}]}]}}"#,
                to: aasa,
                mode: 0o644
            )
            var authorization = AuthorizationEndpointTarget(
                url: base + "/authorize",
                clientID: TestPartner.clientID,
                scopes: ["profile", "devices"],
                credential: server.sessionCredential(for: "alice")
            )
            authorization.signOut = .init(url: base + "/signout", session: server.newSessionCredential(for: "alice"))
            var token = TokenEndpointTarget(
                url: base + "/token",
                clientID: TestPartner.clientID,
                clientSecret: TestPartner.clientSecret,
                resourceURL: base + "/userinfo",
                revokeURL: base + "/revoke"
            )
            token.secondClient = .init(id: TestPartner.secondClientID, secret: TestPartner.secondClientSecret)
            let report = try await Self.audit(
                link: TestPartner.link,
                daemon: daemon,
                authorization: authorization,
                token: token,
                association: AssociationTarget(source: .file(path: aasa), appID: TestPartner.appID, link: try RawURL(TestPartner.link))
            )
            #expect(Self.findings(report) == [], "\(Self.explain(report))")
            #expect(report.exitStatus == 0)
            // A decline carries the partner handler's reason (the declined error's `reason`).
            #expect(
                report.result(.partnerWrongClientID).evidence.contains(
                    "client_id with a character appended \"\(TestPartner.clientID)x\": declined: declined without a redirect: client_id is not one of the expected client ids, opened nothing"
                ),
                "\(report.result(.partnerWrongClientID).evidence)"
            )
            // Everything ran but the slow checks, HTTPS (every endpoint is on the loopback interface), the hosting
            // rules (a local association file is not hosted), the Android association file and the Android app
            // (neither given).
            let hosting: [CheckSpec] = [
                .associationHostedHTTPS, .associationHostedNoRedirect, .associationHostedStatus, .associationHostedContentType,
                .associationHostedSize,
            ]
            let notGiven = AuditCatalogue.all.filter { [.androidAssociationFile, .androidApp, .androidArtifact, .iosArtifact].contains($0.target) }
            #expect(
                Set(report.checks(.skipped)) == Set(notGiven + [.tokenCodeExpiry, .tokenRefreshAfterExpiry, .tokenHTTPS, .authorizeHTTPS] + hosting),
                "\(Self.explain(report))"
            )
        }
    }

    @Test(.serialized, arguments: [nil] + PartnerBug.allCases) func eachPartnerBugIsReportedByItsChecks(bug: PartnerBug?) async throws {
        try await withTestDaemon(oauth: TestPartner.oauthConfiguration) { daemon in
            let report = try await LivePartner.run(bug: bug, daemon: daemon) {
                try await Self.audit(link: LivePartner.link, daemon: daemon)
            }
            #expect(Self.findings(report) == (bug?.findings ?? []), "\(Self.explain(report))")
            #expect(report.result(.partnerRoute).reason.contains(LivePartner.appID))
            if bug == .authorizationDown {
                // The cause is said once, with the app's answer; what needs a code says which precondition, once.
                #expect(report.result(.partnerCode).reason.contains("error=cancelled"), "\(report.result(.partnerCode).reason)")
                #expect(
                    report.result(.partnerCode).reason.contains("the%20authorization%20endpoint%20is%20down"),
                    "\(report.result(.partnerCode).reason)"
                )
                #expect(report.result(.partnerRedirectURIs).reason == "needs partner.code")
                #expect(report.exitStatus == 1)
            }
        }
    }

    @Test func tokenChecksTakeCodesFromTheAuthorizationEndpointWhenTheAppYieldsNone() async throws {
        try await withTestDaemon(oauth: TestPartner.oauthConfiguration) { daemon in
            let server = BrokenOAuthServer(bug: .ignoresSecret)
            let report = try await LivePartner.run(bug: .authorizationDown, daemon: daemon) {
                try await server.run { base in
                    let auditor = Auditor(
                        partner: (
                            PartnerAppTarget(link: try RawURL(LivePartner.link), clientID: TestPartner.clientID, scopes: ["profile"]),
                            daemon.socketPath
                        ),
                        authorization: AuthorizationEndpointTarget(
                            url: base + "/authorize",
                            clientID: BrokenOAuthServer.clientID,
                            scopes: ["profile"],
                            credential: .cookie("session=signed-in")
                        ),
                        token: TokenEndpointTarget(
                            url: base + "/token",
                            clientID: BrokenOAuthServer.clientID,
                            clientSecret: BrokenOAuthServer.clientSecret
                        )
                    )
                    return await auditor.run(httpClient: daemon.httpClient!)
                }
            }
            // The app yields no code (said once, as could not run); the authorization endpoint does, so a server
            // that accepts any secret does not go unseen.
            #expect(Self.findings(report) == ["partner.code: could-not-run", "token.wrong-secret: fail"], "\(Self.explain(report))")
            #expect(report.result(.tokenExchange).outcome == .pass)
            #expect(report.exitStatus == 2)
        }
    }

    @Test func whatALookalikeOpenedIsReportedExactly() async throws {
        try await withTestDaemon(oauth: TestPartner.oauthConfiguration) { daemon in
            let report = try await LivePartner.run(bug: .googleSample, daemon: daemon) {
                try await Self.audit(link: LivePartner.link, daemon: daemon)
            }
            let lookalikes = report.result(.partnerLookalikeRedirect)
            // A foreign domain no app claims is still reported, with what became of it; the code is redacted.
            let foreign = try #require(
                lookalikes.evidence.first { $0.hasPrefix("the host replaced by a foreign domain \"https://attacker.example/") }
            )
            #expect(foreign.contains("continued, opened https://attacker.example/a/com.google.OPA?code="), "\(foreign)")
            #expect(
                lookalikes.evidence.contains {
                    $0.hasPrefix("with the default port :443") && $0.contains("continued, opened https://oauth-redirect.googleusercontent.com:443/")
                },
                "\(lookalikes.evidence)"
            )
        }
    }

    @Test func anUnreachableDaemonIsOneSentenceWithTheFix() async throws {
        let auditor = Auditor(
            partner: (PartnerAppTarget(link: try RawURL("https://partner.test/link"), clientID: "c", scopes: ["s"]), "/nonexistent/appflipd.sock")
        )
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .appFlipOAuth())
        let report = await auditor.run(httpClient: httpClient)
        try await httpClient.shutdown()
        #expect(report.exitStatus == 1)
        #expect(
            report.unreachable == [
                "appflipd is not running at /nonexistent/appflipd.sock (no socket there): start it with `sudo systemctl start appflipd.socket`, `systemctl --user start appflipd.socket`, or `appflipd --socket /nonexistent/appflipd.sock`, or point --socket or $APPFLIP_SOCKET at a running daemon"
            ]
        )
        #expect(report.result(.partnerRoute).outcome == .skipped)
    }
}
