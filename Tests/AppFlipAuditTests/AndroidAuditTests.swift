import AppFlipAudit
import AppFlipClient
import AppFlipCore
import AppFlipDaemon
import AppFlipGoogle
import AppFlipHTTPClient
import AppFlipOAuth
import AppFlipProtocol
import AppFlipTesting
import Glibc
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
        /// Google's sample: the package compared with `equalsIgnoreCase`.
        case comparesPackageIgnoringCase
        /// Any package that starts with an allowed one.
        case comparesPackagePrefix
        /// Any package under `com.google.`, signed by an allowed certificate.
        case acceptsSiblingPackages
        /// The allowed package used as a regular expression: each `.` matches any character.
        case matchesPackageAsPattern
        /// Only the fingerprint's first 20 bytes (a SHA-1's length) are compared.
        case comparesFingerprintPrefix
        /// Intents that arrive while a code request is in flight share its code.
        case sharesCodeInFlight
        /// Only SCOPE's first element is asked for.
        case keepsFirstScope
        /// The manifest declares the placeholder of Google's example; the console holds the partner's own action.
        case declaresPlaceholderOnly
        /// The App Flip activity is not exported.
        case notExported
        /// The activity's filter lacks the DEFAULT category, which startActivity adds.
        case lacksDefaultCategory
        /// The app crashes on the Google app's valid intent: its process, the live app's connection, ends.
        case crashesOnValidIntent
    }

    static let placeholder = AndroidAppAudit.consolePlaceholder

    /// Google Home, which a partner may allow beside the Google app.
    static let home = AndroidCaller(package: "com.google.android.apps.chromecast.app", fingerprints: TestPartner.google.fingerprints)

    /// A live partner app with `bug` (nil: conforming) that allows `callers` and gets its codes at
    /// `authorizeURL`, or from the embedded server as alice.
    static func livePartner(
        _ daemon: TestDaemon,
        bug: Bug?,
        callers: [AndroidCaller] = [TestPartner.google],
        authorizeURL: String? = nil
    ) async throws -> AppFlipConnection {
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let endpoint =
            if let authorizeURL {
                AuthorizationEndpoint(url: authorizeURL, credential: nil, httpClient: daemon.httpClient!, logger: logger)
            } else {
                try await daemon.oauthServer!.authorizationEndpoint(signedInAs: "alice", httpClient: daemon.httpClient!, logger: logger)
            }
        let action =
            switch bug {
            case .placeholderAction?, .declaresPlaceholderOnly?: placeholder
            case .declaresOtherAction?: "com.partner.OTHER_ACTION"
            default: TestPartner.androidAction
            }
        let first = FirstCode()
        let inFlight = InFlightCode()
        var identity = TestPartner.android
        identity.activities = [
            AndroidActivity(
                name: ".AppFlipActivity",
                actions: [action],
                categories: bug == .lacksDefaultCategory ? [] : [AndroidActivity.defaultCategory],
                exported: bug != .notExported
            )
        ]
        let connection = try await daemon.connect(client: "partner")
        let crash = Crash(connection)
        _ = try await connection.register(
            RegisterRequest(appID: "P.live", domains: [], android: identity),
            handler: AsyncLiveApp(intents: { push in
                if bug == .crashesOnValidIntent, push.intent.action == TestPartner.androidAction, push.caller == TestPartner.google {
                    return await crash.now()
                }
                let result =
                    bug == .sharesCodeInFlight
                    ? await inFlight.share { await Self.answer(push, bug: bug, callers: callers, endpoint: endpoint) }
                    : await Self.answer(push, bug: bug, callers: callers, endpoint: endpoint)
                return bug == .returnsOneCodeTwice ? await first.keep(result) : result
            })
        )
        return connection
    }

    /// Whether the app with `bug` takes `caller` for one of `allowed`.
    static func accepts(_ caller: AndroidCaller, bug: Bug?, allowed: [AndroidCaller]) -> Bool {
        func samePackage(_ allowed: AndroidCaller) -> Bool {
            switch bug {
            case .comparesPackageIgnoringCase?: caller.package.lowercased() == allowed.package.lowercased()
            case .comparesPackagePrefix?: caller.package.hasPrefix(allowed.package)
            case .acceptsSiblingPackages?: caller.package.hasPrefix("com.google.")
            case .matchesPackageAsPattern?:
                caller.package.count == allowed.package.count
                    && zip(caller.package, allowed.package).allSatisfy { $0 == $1 || $1 == "." }
            default: caller.package == allowed.package
            }
        }
        func sameKey(_ key: String, _ allowedKey: String) -> Bool {
            bug == .comparesFingerprintPrefix ? key.prefix(59) == allowedKey.prefix(59) : key == allowedKey
        }
        // The sibling bug pools every allowed key, whatever the package.
        let keys = bug == .acceptsSiblingPackages ? allowed.flatMap(\.fingerprints) : nil
        return allowed.contains { allowed in
            samePackage(allowed)
                && (bug == .checksOnlyPackage
                    || caller.fingerprints.contains { key in (keys ?? allowed.fingerprints).contains { sameKey(key, $0) } })
        }
    }

    static func answer(_ push: IntentPush, bug: Bug?, callers: [AndroidCaller], endpoint: AuthorizationEndpoint) async -> IntentResult {
        func refuse(_ type: AndroidAppFlip.ErrorType) -> IntentResult {
            switch bug {
            case .refusesAsRecoverable: AndroidAppFlip.error(.recoverable, code: 1)
            case .refusesWithEmptyCode: AndroidAppFlip.code("")
            default: type == .invalidRequest ? AndroidAppFlip.error(.invalidRequest, code: 3) : AndroidAppFlip.canceled
            }
        }
        if bug != .skipsCallerCheck {
            guard push.forResult, let caller = push.caller, accepts(caller, bug: bug, allowed: callers) else { return refuse(.unrecoverable) }
        }
        let extras = push.intent.extras
        guard let clientID = extras[AndroidAppFlip.clientID]?.string, bug == .acceptsAnyClientID || clientID == TestPartner.clientID else {
            return refuse(.invalidRequest)
        }
        let scopes =
            switch bug {
            case .sampleReadsScopeAsString?: extras[AndroidAppFlip.scope]?.string.map { [$0] } ?? []
            case .keepsFirstScope?: Array((extras[AndroidAppFlip.scope]?.stringArray ?? []).prefix(1))
            default: extras[AndroidAppFlip.scope]?.stringArray ?? []
            }

        let redirectURI = extras[AndroidAppFlip.redirectURI]?.string ?? ""
        do {
            // A CLIENT_ID the server does not know (acceptsAnyClientID) still asks for the real client's code.
            let request = AuthorizationRequest(clientID: TestPartner.clientID, redirectURI: redirectURI, scopes: scopes)
            return AndroidAppFlip.code(try await endpoint.authorizationCode(for: request))
        } catch {
            return AndroidAppFlip.error(.unrecoverable, code: 2, description: "\(error)")
        }
    }

    /// The Android audit, exchanging codes at `token`, or at the embedded server; with `control`, the
    /// embedded server's authorization endpoint too, as alice.
    static func audit(
        _ daemon: TestDaemon,
        action: String = TestPartner.androidAction,
        token: TokenEndpointTarget? = nil,
        control: Bool = false
    ) async throws -> AuditReport {
        let embedded = TokenEndpointTarget(
            url: try await daemon.oauthServer!.baseURL() + "/token",
            clientID: TestPartner.clientID,
            clientSecret: TestPartner.clientSecret
        )
        var authorization: AuthorizationEndpointTarget?
        if control {
            let endpoint = try await daemon.oauthServer!.authorizationEndpoint(
                signedInAs: "alice",
                httpClient: daemon.httpClient!,
                logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
            )
            authorization = AuthorizationEndpointTarget(
                url: endpoint.url,
                clientID: TestPartner.clientID,
                scopes: ["profile", "devices"],
                credential: endpoint.credential
            )
        }
        let auditor = Auditor(authorization: authorization, token: token ?? embedded)
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

    /// Conforming apps pass every Android check: one that allows the Google app, one that allows Google Home
    /// beside it (Google's other apps are information, never a failure), one that allows a key the Google app
    /// rotated from beside its own.
    @Test(arguments: [
        [TestPartner.google], [TestPartner.google, home],
        [
            AndroidCaller(
                package: TestPartner.google.package,
                fingerprints: [Array(repeating: "CD", count: 32).joined(separator: ":")] + TestPartner.google.fingerprints
            )
        ],
    ])
    func aConformingLiveAppPassesEveryAndroidCheck(callers: [AndroidCaller]) async throws {
        try await withTestDaemon(oauth: TestPartner.oauthConfiguration) { daemon in
            let partner = try await Self.livePartner(daemon, bug: nil, callers: callers)
            let report = try await Self.audit(daemon)
            #expect(Self.findings(report) == [], "\(Self.explain(report))")
            #expect(report.exitStatus == 0, "\(report.results.filter { $0.outcome != .pass && $0.outcome != .skipped })")
            let package = report.result(.androidCallerPackage)
            #expect(
                package.evidence.contains { $0.contains("com.google.android.apps.chromecast.app") && $0.contains("information") }
                    == (callers.count == 2)
            )
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

    /// What an intent that does not resolve leaves: the manifest's failure, never could-not-run, and what needs a
    /// code skipped naming it.
    static let unresolved = [
        "android.action: fail", "android.code: skipped", "android.caller-package: skipped", "android.caller-fingerprint: skipped",
        "android.caller-unverified: skipped", "android.wrong-client-id: skipped", "android.error-type: skipped",
        "android.result-contract: skipped", "android.scope: skipped", "android.token-exchange: skipped",
    ]

    static let expected: [(Bug, [String])] = [
        (.sampleReadsScopeAsString, ["android.scope: fail"]),
        (.skipsCallerCheck, ["android.caller-package: fail", "android.caller-fingerprint: fail", "android.caller-unverified: fail"]),
        (.checksOnlyPackage, ["android.caller-fingerprint: fail"]),
        (.acceptsAnyClientID, ["android.wrong-client-id: fail"]),
        (.refusesAsRecoverable, ["android.error-type: fail"]),
        (.refusesWithEmptyCode, ["android.result-contract: fail"]),
        (.placeholderAction, ["android.action: fail"]),
        (.declaresOtherAction, unresolved),
        (.notExported, unresolved),
        (.lacksDefaultCategory, unresolved),
        // The placeholder's own intent resolves and gets its code, so one result is judged.
        (.declaresPlaceholderOnly, unresolved.filter { $0 != "android.result-contract: skipped" }),
        (.returnsOneCodeTwice, ["android.code: fail", "android.scope: skipped"]),
        (.sharesCodeInFlight, ["android.code: fail"]),
        (.comparesPackageIgnoringCase, ["android.caller-package: fail"]),
        (.comparesPackagePrefix, ["android.caller-package: fail"]),
        (.acceptsSiblingPackages, ["android.caller-package: fail"]),
        (.matchesPackageAsPattern, ["android.caller-package: fail"]),
        (.comparesFingerprintPrefix, ["android.caller-fingerprint: fail"]),
        (
            .crashesOnValidIntent,
            [
                "android.code: fail", "android.caller-package: skipped", "android.caller-fingerprint: skipped", "android.caller-unverified: skipped",
                "android.wrong-client-id: skipped", "android.error-type: skipped", "android.result-contract: skipped", "android.scope: skipped",
                "android.token-exchange: skipped",
            ]
        ),
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

    /// A claim policy that lets the audit be none of the lookalikes leaves `android.caller-package` unprobed: the
    /// audit's own input, so the check is skipped saying why and the run could not finish (exit status 1), never
    /// a silent pass, whatever the app does; the other keys, on the Google app's own package, are judged.
    @Test(arguments: [Bug?.none, .comparesPackageIgnoringCase])
    func aClaimPolicyThatRefusesTheLookalikesIsTheAuditsInput(bug: Bug?) async throws {
        var configuration = DaemonConfiguration()
        configuration.claimPolicy = ClaimPolicy(androidPackages: [getuid(): [TestPartner.google.package, TestPartner.androidPackage]])
        try await withTestDaemon(configuration: configuration, oauth: TestPartner.oauthConfiguration) { daemon in
            let partner = try await Self.livePartner(daemon, bug: bug)
            let report = try await Self.audit(daemon)
            #expect(Self.findings(report) == ["android.caller-package: skipped"], "\(Self.explain(report))")
            #expect(report.result(.androidCallerPackage).reason.contains("claimPolicy.androidPackages"))
            #expect(report.result(.androidCallerFingerprint).outcome == .pass)
            #expect(report.exitStatus == 1)
            #expect(report.unreachable.contains { $0.contains("claimPolicy.androidPackages") }, "\(report.unreachable)")
            await partner.close()
        }
    }

    /// Each failure names the variant that got through, with its evidence.
    @Test(arguments: [
        (
            Bug.comparesPackageIgnoringCase, CheckSpec.androidCallerPackage,
            "COM.GOOGLE.ANDROID.GOOGLEQUICKSEARCHBOX, a lookalike of com.google.android.googlequicksearchbox (upper case)"
        ),
        (
            .comparesPackagePrefix, .androidCallerPackage,
            "com.google.android.googlequicksearchbox.attacker, a lookalike of com.google.android.googlequicksearchbox (a child package)"
        ),
        (
            .matchesPackageAsPattern, .androidCallerPackage,
            "com.google.android_googlequicksearchbox, a lookalike of com.google.android.googlequicksearchbox (its last dot an underscore"
        ),
        (.comparesFingerprintPrefix, .androidCallerFingerprint, "signed by the allowed key with its last byte changed"),
        (.sharesCodeInFlight, .androidCode, "started at once with another"),
        (.declaresPlaceholderOnly, .androidAction, "the manifest declares INTENT_ACTION_FROM_CONSOLE"),
        (.notExported, .androidAction, "is not exported"),
        (.lacksDefaultCategory, .androidAction, "lacks android.intent.category.DEFAULT"),
    ])
    func eachFailureNamesWhatGotThrough(bug: Bug, check: CheckSpec, named: String) async throws {
        try await withTestDaemon(oauth: TestPartner.oauthConfiguration) { daemon in
            let partner = try await Self.livePartner(daemon, bug: bug)
            let result = try await Self.audit(daemon).result(check)
            #expect(result.outcome == .fail)
            #expect(result.reason.contains(named), "\(result.reason)")
            #expect(!result.evidence.isEmpty)
            await partner.close()
        }
    }

    /// `android.scope` asks for each scope alone and all of them. A server may grant other scopes than asked, so
    /// an app that keeps only the first scope is a warning alone, and a failure when the authorization
    /// endpoint's own code for the same scopes carries them; a conforming app passes either way.
    @Test(arguments: [
        (Bug?.none, false, AuditOutcome.pass), (nil, true, .pass), (.keepsFirstScope, false, .warning), (.keepsFirstScope, true, .fail),
    ])
    func theScopesOfEveryIntentReachTheCode(bug: Bug?, control: Bool, outcome: AuditOutcome) async throws {
        try await withTestDaemon(oauth: TestPartner.oauthConfiguration) { daemon in
            let partner = try await Self.livePartner(daemon, bug: bug)
            let result = try await Self.audit(daemon, control: control).result(.androidScope)
            #expect(result.outcome == outcome, "\(result.reason)\n\(result.evidence.joined(separator: "\n"))")
            let asked = result.evidence.filter { $0.hasPrefix("the app's code for SCOPE") }.map { $0.prefix { $0 != ":" } }
            #expect(
                Set(asked) == [
                    "the app's code for SCOPE [\"profile\"]", "the app's code for SCOPE [\"devices\"]",
                    "the app's code for SCOPE [\"profile\", \"devices\"]",
                ]
            )
            await partner.close()
        }
    }

    /// The Android exchanges go through the audit's recorder: each is recorded, redacted, and judged by the
    /// `token.*` rules, even with no other code source in the audit.
    @Test func theAndroidExchangesAreRecordedAndJudged() async throws {
        try await withTestDaemon(oauth: TestPartner.oauthConfiguration) { daemon in
            let partner = try await Self.livePartner(daemon, bug: nil)
            let report = try await Self.audit(daemon)
            let exchanges = report.exchanges.filter { $0.purpose.hasPrefix("android.") }
            #expect(exchanges.contains { $0.purpose.hasPrefix("android.token-exchange") })
            #expect(exchanges.filter { $0.purpose.hasPrefix("android.scope") }.count == 3)
            for exchange in exchanges {
                let code = exchange.request.form.first { $0.name == "code" }?.value ?? ""
                #expect(code.hasPrefix("("), "the code is shown as its length and fingerprint: \(code)")
                #expect(exchange.response?.body.contains("access_token\":\"(") != false, "\(exchange.response?.body ?? "")")
            }
            for check in [CheckSpec.tokenJSON, .tokenNoStore, .tokenBearer, .tokenOpaque, .tokenExpiresIn, .tokenRefreshIssued] {
                #expect(report.result(check).outcome == .pass, "\(check.id): \(report.result(check).reason)")
            }
            await partner.close()
        }
    }
}

/// A live app's crash: its connection closes before it answers.
private struct Crash: Sendable {
    let connection: AppFlipConnection

    init(_ connection: AppFlipConnection) {
        self.connection = connection
    }

    func now() async -> IntentResult {
        await connection.close()
        return AndroidAppFlip.canceled
    }
}

/// One code request at a time: an intent that arrives while one is in flight gets its result.
private actor InFlightCode {
    private var pending: Task<IntentResult, Never>?

    func share(_ answer: @escaping @Sendable () async -> IntentResult) async -> IntentResult {
        if let pending { return await pending.value }
        let task = Task {
            try? await Task.sleep(for: .milliseconds(100))
            return await answer()
        }
        pending = task
        let result = await task.value
        pending = nil
        return result
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
