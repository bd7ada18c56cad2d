import AppFlipAudit
import AppFlipCore
import AppFlipHTTPClient
import AppFlipOAuth
import AppFlipTesting
import Logging
import Testing

/// `partner.scope` through a real appflipd and the embedded server: the app's codes are exchanged and the
/// scopes their tokens carry held against the link's, and against the authorization endpoint's own code
/// when the audit has that target.
@Suite struct PartnerScopeTests {
    /// The audit of the live partner with `bug` and the token endpoint, with the authorization endpoint as
    /// the control when `control` is set.
    static func audit(bug: PartnerBug?, scopes: [String], control: Bool) async throws -> AuditResult {
        try await withTestDaemon(oauth: TestPartner.oauthConfiguration) { daemon in
            let base = try await daemon.oauthServer!.baseURL()
            let endpoint = try await daemon.oauthServer!.authorizationEndpoint(
                signedInAs: "alice",
                httpClient: daemon.httpClient!,
                logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
            )
            let report = try await LivePartner.run(bug: bug, daemon: daemon) {
                let auditor = Auditor(
                    partner: (
                        PartnerAppTarget(link: try RawURL(LivePartner.link), clientID: TestPartner.clientID, scopes: scopes), daemon.socketPath
                    ),
                    authorization: control
                        ? AuthorizationEndpointTarget(
                            url: endpoint.url,
                            clientID: TestPartner.clientID,
                            scopes: scopes,
                            credential: endpoint.credential
                        )
                        : nil,
                    token: TokenEndpointTarget(url: base + "/token", clientID: TestPartner.clientID, clientSecret: TestPartner.clientSecret)
                )
                return await auditor.run(httpClient: daemon.httpClient!)
            }
            return report.result(.partnerScope)
        }
    }

    static let cases: [(PartnerBug?, Bool, AuditOutcome)] = [
        (nil, false, .pass),
        (nil, true, .pass),
        // Asked for "profile" alone, the tokens carry "profile devices": the app or the server's policy.
        (.asksForEveryScope, false, .warning),
        // The authorization endpoint's own code for "profile" carries "profile": the app is the cause.
        (.asksForEveryScope, true, .fail),
        (.keepsFirstScope, true, .fail),
        // Google never asks for a part of the scopes: refusing one leaves that request unjudged, not the check.
        (.refusesPartOfTheScopes, false, .pass),
    ]

    @Test(arguments: cases)
    func theScopesTheCodeCarriesAreTheLinks(bug: PartnerBug?, control: Bool, outcome: AuditOutcome) async throws {
        let result = try await Self.audit(bug: bug, scopes: ["profile", "devices"], control: control)
        #expect(result.outcome == outcome, "\(result.reason)\n\(result.evidence.joined(separator: "\n"))")
        // No code or token reaches the result: lengths and fingerprints only.
        #expect(!result.evidence.joined().contains("access_token\":"), "\(result.evidence)")
    }

    @Test func withoutAScopeTheCheckIsSkippedNotFailed() async throws {
        let result = try await Self.audit(bug: nil, scopes: [], control: false)
        #expect(result.outcome == .skipped, "\(result.reason)")
    }
}
