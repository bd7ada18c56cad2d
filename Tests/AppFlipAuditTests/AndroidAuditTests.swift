import AppFlipAudit
import AppFlipClient
import AppFlipCore
import AppFlipGoogle
import AppFlipHTTPClient
import AppFlipOAuth
import AppFlipProtocol
import AppFlipTesting
import Logging
import Testing

/// The Android checks through a real appflipd and the embedded OAuth server: the built-in partner handler
/// and a conforming live app pass, and each broken live app is reported by exactly its checks.
@Suite struct AndroidAuditTests {
    /// One bug of a partner's App Flip activity each.
    enum Bug: String, CaseIterable, Sendable {
        /// Google's Android sample: `getString("SCOPE")`, null for a String[], so the scopes are lost.
        case sampleReadsScopeAsString
        /// No caller check at all.
        case skipsCallerCheck
        /// Only the package is compared.
        case checksOnlyPackage
        /// Any CLIENT_ID is taken.
        case acceptsAnyClientID
        /// Every refusal is ERROR_TYPE 1.
        case refusesAsRecoverable
        /// A refusal is RESULT_OK with an empty code.
        case refusesWithEmptyCode
        /// The activity's action is the placeholder of Google's manifest example.
        case placeholderAction
        /// The manifest declares another action than the one entered in the console: Google's intent does not
        /// resolve (an integration failure, not the audit's).
        case declaresOtherAction
        /// Every intent gets the first code the app was given.
        case returnsOneCodeTwice
    }

    static let placeholder = AndroidAppAudit.consolePlaceholder

    /// A live partner app with `bug` (nil: conforming) that gets its codes at `authorizeURL`, or from the
    /// embedded server as alice.
    static func livePartner(_ daemon: TestDaemon, bug: Bug?, authorizeURL: String? = nil) async throws -> AppFlipConnection {
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let endpoint =
            if let authorizeURL {
                AuthorizationEndpoint(url: authorizeURL, credential: nil, httpClient: daemon.httpClient!, logger: logger)
            } else {
                try await daemon.oauthServer!.authorizationEndpoint(signedInAs: "alice", httpClient: daemon.httpClient!, logger: logger)
            }
        let action = bug == .placeholderAction ? placeholder : bug == .declaresOtherAction ? "com.partner.OTHER_ACTION" : TestPartner.androidAction
        let first = FirstCode()
        var identity = TestPartner.android
        identity.activities = [AndroidActivity(name: ".AppFlipActivity", actions: [action], exported: true)]
        let connection = try await daemon.connect(client: "partner")
        _ = try await connection.register(
            RegisterRequest(appID: "P.live", domains: [], android: identity),
            handler: AsyncLiveApp(intents: { push in
                let result = await Self.answer(push, bug: bug, endpoint: endpoint)
                return bug == .returnsOneCodeTwice ? await first.keep(result) : result
            })
        )
        return connection
    }

    static func answer(_ push: IntentPush, bug: Bug?, endpoint: AuthorizationEndpoint) async -> IntentResult {
        func refuse(_ type: AndroidAppFlip.ErrorType) -> IntentResult {
            switch bug {
            case .refusesAsRecoverable: AndroidAppFlip.error(.recoverable, code: 1)
            case .refusesWithEmptyCode: AndroidAppFlip.code("")
            default: type == .invalidRequest ? AndroidAppFlip.error(.invalidRequest, code: 3) : AndroidAppFlip.canceled
            }
        }
        if bug != .skipsCallerCheck {
            guard push.forResult, let caller = push.caller, caller.package == TestPartner.google.package else { return refuse(.unrecoverable) }
            if bug != .checksOnlyPackage, !caller.fingerprints.contains(where: TestPartner.google.fingerprints.contains) {
                return refuse(.unrecoverable)
            }
        }
        let extras = push.intent.extras
        guard let clientID = extras[AndroidAppFlip.clientID]?.string, bug == .acceptsAnyClientID || clientID == TestPartner.clientID else {
            return refuse(.invalidRequest)
        }
        let scopes =
            bug == .sampleReadsScopeAsString
            ? extras[AndroidAppFlip.scope]?.string.map { [$0] } ?? [] : extras[AndroidAppFlip.scope]?.stringArray ?? []
        let redirectURI = extras[AndroidAppFlip.redirectURI]?.string ?? ""
        do {
            // A CLIENT_ID the server does not know (acceptsAnyClientID) still asks for the real client's code.
            let request = AuthorizationRequest(clientID: TestPartner.clientID, redirectURI: redirectURI, scopes: scopes)
            return AndroidAppFlip.code(try await endpoint.authorizationCode(for: request))
        } catch {
            return AndroidAppFlip.error(.unrecoverable, code: 2, description: "\(error)")
        }
    }

    /// The Android audit, exchanging codes at `token`, or at the embedded server.
    static func audit(_ daemon: TestDaemon, action: String = TestPartner.androidAction, token: TokenEndpointTarget? = nil) async throws -> AuditReport
    {
        let embedded = TokenEndpointTarget(
            url: try await daemon.oauthServer!.baseURL() + "/token",
            clientID: TestPartner.clientID,
            clientSecret: TestPartner.clientSecret
        )
        let auditor = Auditor(token: token ?? embedded)
        var android = auditor
        android.android = (
            AndroidAppTarget(
                package: TestPartner.androidPackage,
                action: action,
                clientID: TestPartner.clientID,
                scopes: ["profile", "devices"],
                redirectURI: TestPartner.androidRedirectURI,
                caller: TestPartner.google,
                timeout: .seconds(30)
            ), daemon.socketPath
        )
        return await android.run(httpClient: daemon.httpClient!)
    }

    /// The Android checks that did not pass, as `id: outcome`.
    static func findings(_ report: AuditReport) -> [String] {
        report.results.filter { $0.check.target == .androidApp && $0.outcome != .pass }.map { "\($0.check.id): \($0.outcome.rawValue)" }
    }

    static func explain(_ report: AuditReport) -> String {
        report.results.filter { $0.check.target == .androidApp && $0.outcome != .pass }.map {
            "\($0.check.id) \($0.outcome.rawValue): \($0.reason)"
        }
        .joined(separator: "\n")
    }

    @Test func theBuiltInPartnerHandlerPassesEveryAndroidCheck() async throws {
        try await TestPartner.run(handler: TestPartner.handler(extra: ["android": TestPartner.androidSection()])) { daemon in
            let report = try await Self.audit(daemon)
            #expect(Self.findings(report) == [], "\(Self.explain(report))")
        }
    }

    @Test func aConformingLiveAppPassesEveryAndroidCheck() async throws {
        try await withTestDaemon(oauth: TestPartner.oauthConfiguration) { daemon in
            let partner = try await Self.livePartner(daemon, bug: nil)
            let report = try await Self.audit(daemon)
            #expect(Self.findings(report) == [], "\(Self.explain(report))")
            await partner.close()
        }
    }

    /// A partner whose token endpoint takes HTTP Basic only: the Android exchange authenticates as
    /// `--client-auth` says, so Basic exchanges and the form body is refused (the server names no scope, so
    /// `android.scope` cannot judge; refused, the scoped code is skipped naming `android.token-exchange`).
    @Test(arguments: [
        (ClientAuthMethod.basic, ["android.scope: skipped"]), (.post, ["android.scope: skipped", "android.token-exchange: fail"]),
    ])
    func theTokenChecksAuthenticateAsConfigured(method: ClientAuthMethod, findings: [String]) async throws {
        let server = BrokenOAuthServer(bug: .basicOnly, clientID: TestPartner.clientID, extraRedirectURIs: [TestPartner.androidRedirectURI])
        try await server.run { base in
            try await withTestDaemon(oauth: TestPartner.oauthConfiguration) { daemon in
                let partner = try await Self.livePartner(daemon, bug: nil, authorizeURL: base + "/authorize")
                let token = TokenEndpointTarget(
                    url: base + "/token",
                    clientID: TestPartner.clientID,
                    clientSecret: BrokenOAuthServer.clientSecret,
                    clientAuth: method
                )
                let report = try await Self.audit(daemon, token: token)
                #expect(Self.findings(report).sorted() == findings, "\(Self.explain(report))")
                await partner.close()
            }
        }
    }

    static let expected: [(Bug, [String])] = [
        (.sampleReadsScopeAsString, ["android.scope: fail"]),
        (.skipsCallerCheck, ["android.caller-package: fail", "android.caller-fingerprint: fail", "android.caller-unverified: fail"]),
        (.checksOnlyPackage, ["android.caller-fingerprint: fail"]),
        (.acceptsAnyClientID, ["android.wrong-client-id: fail", "android.error-type: skipped"]),
        (.refusesAsRecoverable, ["android.error-type: fail"]),
        (.refusesWithEmptyCode, ["android.result-contract: fail"]),
        (.placeholderAction, ["android.action: fail"]),
        // Never could-not-run: the intent that does not resolve is the manifest's failure, and what needed a code
        // is skipped naming it.
        (
            .declaresOtherAction,
            [
                "android.action: fail", "android.code: skipped", "android.caller-package: skipped", "android.caller-fingerprint: skipped",
                "android.caller-unverified: skipped", "android.wrong-client-id: skipped", "android.error-type: skipped", "android.scope: skipped",
                "android.token-exchange: skipped",
            ]
        ),
        (.returnsOneCodeTwice, ["android.code: fail", "android.scope: skipped"]),
    ]

    @Test(arguments: expected)
    func eachBugFailsExactlyItsChecks(bug: Bug, findings: [String]) async throws {
        try await withTestDaemon(oauth: TestPartner.oauthConfiguration) { daemon in
            let partner = try await Self.livePartner(daemon, bug: bug)
            let report = try await Self.audit(daemon, action: bug == .placeholderAction ? Self.placeholder : TestPartner.androidAction)
            #expect(Self.findings(report) == findings, "\(Self.explain(report))")
            #expect(report.exitStatus == 2)
            await partner.close()
        }
    }
}

/// The first code an app returned, returned again for every later intent that gets a code.
private actor FirstCode {
    private var code: IntentResult?

    func keep(_ result: IntentResult) -> IntentResult {
        guard result.resultCode == IntentResult.ok, result.extras[AndroidAppFlip.authorizationCode] != nil else { return result }
        if let code { return code }
        code = result
        return result
    }
}
