import AppFlipCore
import AppFlipGoogle
public import AppFlipHTTPClient
public import AsyncHTTPClient

/// The Android checks: intents started as the Google app and as others, each result judged as the Google app
/// reads it, and the codes exchanged as Google's server does, through the token-endpoint checks' requests, so
/// that every answer is recorded and judged by the `token.*` rules like any other. Each start comes from a
/// connection registered as the identity it needs; starts run one at a time, but for two valid intents started
/// at once.
public struct AndroidAppAudit: Sendable {
    public var target: AndroidAppTarget
    public var socketPath: String
    public var token: TokenEndpointTarget?
    /// The authorization endpoint's own codes, which tell what the server grants for the scopes `android.scope`
    /// asks for; nil without that target.
    var scopeControl: (any ScopedCodeSource)?
    /// The redirect URI the authorization endpoint's codes are issued for.
    var redirectURI: AppFlipRedirectURI
    public var httpClient: HTTPClient
    public var bounds: OutboundBounds
    let context: AuditContext
    let log = StartLog()

    /// The action Google's App Flip for Android page writes in its manifest example for the value entered in
    /// the console.
    public static let consolePlaceholder = "INTENT_ACTION_FROM_CONSOLE"
    /// The package the caller checks start as when they are neither Google's nor like it.
    static let otherPackage = "dev.appflip.audit.other"

    init(
        target: AndroidAppTarget,
        socketPath: String,
        token: TokenEndpointTarget?,
        scopeControl: (any ScopedCodeSource)?,
        redirectURI: AppFlipRedirectURI,
        httpClient: HTTPClient,
        bounds: OutboundBounds,
        context: AuditContext
    ) {
        self.target = target
        self.socketPath = socketPath
        self.token = token
        self.scopeControl = scopeControl
        self.redirectURI = redirectURI
        self.httpClient = httpClient
        self.bounds = bounds
        self.context = context
    }

    /// Every Android probe. Throws only when appflipd or the token endpoint cannot be reached.
    func probe() async throws(AuditUnreachable) {
        let ledger = context.ledger
        defer { contract(log.all) }
        let google: CallerSession
        switch try await open(as: target.caller) {
        case .success(let session): google = session
        case .failure(let refused): throw AuditUnreachable("\(refused)")
        }
        let valid = await start("the Google app's intent", on: google)
        let placeholder =
            target.action == Self.consolePlaceholder
            ? nil : await start("the Google app's intent with the action \(Self.consolePlaceholder)", on: google, action: Self.consolePlaceholder)
        Blame.androidStart(failure: valid.failureCode, message: valid.summary, verdict: valid.verdict).apply(
            to: .androidCode,
            establishedBy: .androidCode,
            in: ledger,
            evidence: [valid.line]
        )
        action(valid, placeholder: placeholder)
        guard ledger.isMet(.androidCode), let code = valid.code else {
            await google.close()
            return
        }
        await newCodes(on: google)
        await wrongClientIDs(on: google)
        await google.close()
        try await callers()
        guard let token else { return }
        try await exchanges(code: code, token: token)
    }

    /// `android.action`: the console's action is the partner's own, and Google's intent resolves (a valid start
    /// that does not is ``Blame/androidStart``'s failure of this rule). `placeholder` is the same intent with
    /// the action of Google's manifest example: resolving, it shows the manifest declares that placeholder.
    private func action(_ valid: Start, placeholder: Start?) {
        let ledger = context.ledger
        let evidence = [valid.line] + (placeholder.map { [$0.line] } ?? [])
        let declaresPlaceholder = placeholder?.resolved == true
        if target.action == Self.consolePlaceholder {
            ledger.record(
                .androidAction,
                .fail("the action is \(Self.consolePlaceholder), the placeholder of Google's example, not the partner's own", evidence: evidence)
            )
        }
        if valid.resolved == false, declaresPlaceholder, let placeholder {
            // The valid start's own evidence is the blame's.
            ledger.record(
                .androidAction,
                .fail(
                    "the manifest declares \(Self.consolePlaceholder), the placeholder of Google's example, where the console's action \(target.action) belongs",
                    evidence: [placeholder.line]
                )
            )
        }
        guard valid.resolved == true, target.action != Self.consolePlaceholder else { return }
        let leftover =
            declaresPlaceholder
            ? "; the manifest also declares \(Self.consolePlaceholder), a leftover of Google's example that Google's intent never names" : ""
        ledger.record(
            .androidAction,
            .held(
                "Google's intent with the action \(target.action) resolves to \(valid.activity ?? "the App Flip activity")" + leftover,
                evidence: evidence
            )
        )
    }

    /// `android.code`'s family: a new code for each intent, the valid intent sent again and then twice at once
    /// (``start(_:on:action:extras:removing:)`` registers each code: one returned before fails `android.code`).
    /// A refusal of these is not judged: an app may turn away an intent while another is in progress.
    private func newCodes(on google: CallerSession) async {
        let again = await start("the Google app's intent, again", on: google)
        async let first = start("the Google app's intent, started at once with another (1 of 2)", on: google)
        async let second = start("the Google app's intent, started at once with another (2 of 2)", on: google)
        let (one, two) = await (first, second)
        context.ledger.record(.androidCode, .note([again.line, one.line, two.line]))
    }

    /// `android.wrong-client-id` and `android.error-type`, on the wrong client ids `partner.wrong-client-id`
    /// sends (`IdentifierMutations`), the missing one as an intent without `CLIENT_ID`.
    private func wrongClientIDs(on google: CallerSession) async {
        var starts: [Start] = []
        for wrong in IdentifierMutations.all(of: target.clientID) + [Mutation(.parameters, "missing", nil)] {
            if let value = wrong.value {
                starts.append(
                    await start(
                        "CLIENT_ID \(String(reflecting: value)) (\(wrong.label))",
                        on: google,
                        extras: [AndroidAppFlip.clientID: .string(value)]
                    )
                )
            } else {
                starts.append(await start("no CLIENT_ID (\(wrong.label))", on: google, removing: [AndroidAppFlip.clientID]))
            }
        }
        context.ledger.record(.androidWrongClientID, refusal(starts))
        errorType(starts)
    }

    /// `android.caller-package`, `android.caller-fingerprint`, `android.caller-unverified`: each caller family
    /// (`AndroidCallerFamily`) started from a connection registered as it. Google's other apps, signed by the
    /// Google app's certificates, are information: a partner may allow each of them, and the lookalikes and
    /// other keys of each one that gets a code are probed too.
    private func callers() async throws(AuditUnreachable) {
        let google = target.caller
        var allowed = [google]
        var information: [String] = []
        for app in AndroidCallerFamily.googleApps where app.package != google.package {
            let caller = AndroidCaller(package: app.package, fingerprints: google.fingerprints)
            let started = try await start("\(app.package) (\(app.name)), signed by the Google app's certificate", as: caller)
            information.append(started.line + (started.code == nil ? "" : ": an allowed caller (information)"))
            if started.code != nil { allowed.append(caller) }
        }
        let googlePackages = Set(AndroidCallerFamily.googleApps.map(\.package))
        var packages = [
            try await start(
                "\(Self.otherPackage), not Google's, signed by the Google app's certificate",
                as: AndroidCaller(package: Self.otherPackage, fingerprints: google.fingerprints)
            )
        ]
        var keys: [Start] = []
        for caller in allowed {
            for variant in AndroidCallerFamily.lookalikePackages(of: caller) where !googlePackages.contains(variant.caller.package) {
                let label = "\(Self.shown(variant.caller.package)), a lookalike of \(caller.package) (\(variant.label)), signed by its certificate"
                packages.append(try await start(label, as: variant.caller))
            }
            for variant in AndroidCallerFamily.otherKeys(of: caller) {
                keys.append(try await start("\(caller.package) signed by \(variant.label)", as: variant.caller))
            }
        }
        let unverified = try await start("started by an app the daemon cannot name", as: nil)
        judgeCallers(.androidCallerPackage, packages, information: information)
        judgeCallers(.androidCallerFingerprint, keys)
        judgeCallers(.androidCallerUnverified, [unverified])
    }

    /// A caller check over the starts of its family: none may get a code. A caller appflipd would not register
    /// the audit as (its claim policy) leaves the family unprobed, the audit's own input: unless another caller
    /// already got a code, the check is skipped with why and the run could not finish (exit status 1).
    private func judgeCallers(_ check: CheckSpec, _ starts: [Start], information: [String] = []) {
        let ledger = context.ledger
        let refused = starts.filter(\.notStarted)
        var finding = refusal(starts)
        finding.evidence += information
        guard refused.isEmpty || finding.kind == .broke(.must) else {
            let why =
                "appflipd would not register the audit as \(refused.count) of the \(starts.count) callers of \(check.id) (\(refused[0].failure ?? "")); "
                + "its claim policy (claimPolicy.androidPackages) must let the audit's uid be any package"
            ledger.unreachable(why)
            ledger.set(.androidCode, .couldNotRun(.unreachable, why), for: check)
            ledger.record(check, .note(finding.evidence))
            return
        }
        ledger.record(check, finding)
    }

    /// A finding that holds when none of `starts` handed out a code.
    private func refusal(_ starts: [Start]) -> Finding {
        let coded = starts.filter { $0.code != nil }
        let evidence = starts.map(\.line)
        guard coded.isEmpty else { return .fail("a code was returned: " + coded.map(\.label).joined(separator: "; "), evidence: evidence) }
        return .held(starts.count == 1 ? "no code: \(starts[0].summary)" : "none of \(starts.count) intents got a code", evidence: evidence)
    }

    /// A wrong `CLIENT_ID` refused as recoverable sends Google to web OAuth with the same request.
    private func errorType(_ starts: [Start]) {
        let refused = starts.filter { $0.code == nil && $0.result != nil }
        guard !refused.isEmpty else {
            context.ledger.set(.androidRefusal, .nothingToJudge("no wrong CLIENT_ID was refused (android.wrong-client-id)"))
            return
        }
        context.ledger.establish(.androidRefusal)
        let recoverable = refused.filter { $0.result?.extras[AndroidAppFlip.errorType]?.int == AndroidAppFlip.ErrorType.recoverable.rawValue }
        let evidence = refused.map(\.line)
        context.ledger.record(
            .androidErrorType,
            recoverable.isEmpty
                ? .held("no wrong CLIENT_ID was answered as recoverable", evidence: evidence)
                : .fail("answered ERROR_TYPE 1 (recoverable): " + recoverable.map(\.label).joined(separator: "; "), evidence: evidence)
        )
    }

    /// `android.result-contract`: every result of the run, as the Google app reads it.
    private func contract(_ starts: [Start]) {
        let ledger = context.ledger
        let judged = starts.filter { $0.result != nil }.count
        guard judged > 0 else {
            ledger.set(.androidApp, .nothingToJudge("no intent got a result to judge"), for: .androidResultContract)
            return
        }
        let broken = starts.compactMap { start in
            start.verdict.flatMap { $0.violations.isEmpty ? nil : "\(start.label): " + $0.violations.joined(separator: "; ") }
        }
        ledger.record(.androidResultContract, broken.isEmpty ? .held("\(judged) results keep the contract") : .fail(broken.joined(separator: " | ")))
    }
}
