import AppFlipCore
import AppFlipGoogle
public import AppFlipHTTPClient
public import AsyncHTTPClient
import Logging

/// The Android checks: intents started as the Google app and as others, each result judged as the Google app
/// reads it, and the code exchanged as Google's server does. Starts run one at a time, each from a connection
/// registered as the identity it needs.
public struct AndroidAppAudit: Sendable {
    public var target: AndroidAppTarget
    public var socketPath: String
    public var token: TokenEndpointTarget?
    public var httpClient: HTTPClient
    public var bounds: OutboundBounds
    let context: AuditContext

    /// The action Google's App Flip for Android page writes in its manifest example for the value entered in
    /// the console.
    public static let consolePlaceholder = "INTENT_ACTION_FROM_CONSOLE"
    /// The package the caller checks start as when they are not the Google app.
    static let otherPackage = "dev.appflip.audit.other"

    init(
        target: AndroidAppTarget,
        socketPath: String,
        token: TokenEndpointTarget?,
        httpClient: HTTPClient,
        bounds: OutboundBounds,
        context: AuditContext
    ) {
        self.target = target
        self.socketPath = socketPath
        self.token = token
        self.httpClient = httpClient
        self.bounds = bounds
        self.context = context
    }

    /// Every Android probe. Throws only when appflipd cannot be reached.
    func probe() async throws(AuditUnreachable) {
        let ledger = context.ledger
        let placeholder = target.action == Self.consolePlaceholder
        ledger.record(
            .androidAction,
            placeholder
                ? .fail("the action is \(Self.consolePlaceholder), the placeholder of Google's example, not the partner's own")
                : .held("the action is \(target.action)")
        )
        var starts: [Start] = []
        let valid = try await start("the Google app's intent", as: target.caller, extras: [:])
        starts.append(valid)
        Blame.androidStart(failure: valid.failureCode, message: valid.summary, verdict: valid.verdict).apply(
            to: .androidCode,
            establishedBy: .androidCode,
            in: ledger,
            evidence: [valid.label + ": " + valid.summary]
        )
        if let code = valid.code { register(code, from: valid.label) }
        guard ledger.isMet(.androidCode), let code = valid.code else {
            ledger.record(.androidResultContract, contract(starts))
            return
        }
        starts += try await callers()
        let wrongIDs = try await wrongClientIDs()
        starts += wrongIDs
        let asked = [target.scopes[0]]
        let scoped = try await start("SCOPE [\(asked[0])]", as: target.caller, extras: [AndroidAppFlip.scope: .stringArray(asked)])
        starts.append(scoped)
        ledger.record(.androidResultContract, contract(starts))
        let scopedIsFresh = scoped.code.map { register($0, from: scoped.label) } ?? true
        guard let token else { return }
        try await exchanges(code: code, scoped: scopedIsFresh ? scoped : nil, asked: asked, token: token)
    }

    /// Registers a code the app returned; one returned before breaks `android.code`, and `android.scope`, which
    /// would have exchanged it, is skipped naming it. False for such a code.
    @discardableResult
    private func register(_ code: String, from start: String) -> Bool {
        guard let earlier = context.codes.register(code, by: "the intent \(start)") else { return true }
        context.ledger.record(.androidCode, .fail("the intent \(start) got the code already returned to \(earlier): each intent gets a new code"))
        context.ledger.set(
            .androidCode,
            .brokeRule(.androidCode, "the intent \(start) got a code already returned (android.code)"),
            for: .androidScope
        )
        return false
    }

    /// `android.caller-package`, `android.caller-fingerprint`, `android.caller-unverified`.
    private func callers() async throws(AuditUnreachable) -> [Start] {
        let google = target.caller
        let otherPackage = try await start(
            "started by \(Self.otherPackage)",
            as: AndroidCaller(package: Self.otherPackage, fingerprints: google.fingerprints),
            extras: [:]
        )
        let otherKey = try await start(
            "started by \(google.package) signed by another certificate",
            as: AndroidCaller(package: google.package, fingerprints: [Self.otherFingerprint(than: google.fingerprints)]),
            extras: [:]
        )
        let unverified = try await start("started by an app the daemon cannot name", as: nil, extras: [:])
        for (check, start) in [
            (CheckSpec.androidCallerPackage, otherPackage), (.androidCallerFingerprint, otherKey), (.androidCallerUnverified, unverified),
        ] {
            context.ledger.record(check, refusal([start]))
        }
        return [otherPackage, otherKey, unverified]
    }

    /// `android.wrong-client-id` and `android.error-type`.
    private func wrongClientIDs() async throws(AuditUnreachable) -> [Start] {
        let clientID = target.clientID
        var wrongIDs: [Start] = []
        for wrong in [clientID + "-other", clientID.uppercased() == clientID ? clientID.lowercased() : clientID.uppercased(), clientID + " ", ""]
        where wrong != clientID {
            wrongIDs.append(try await start("CLIENT_ID \"\(wrong)\"", as: target.caller, extras: [AndroidAppFlip.clientID: .string(wrong)]))
        }
        context.ledger.record(.androidWrongClientID, refusal(wrongIDs))
        errorType(wrongIDs)
        return wrongIDs
    }

    /// A finding that holds when none of `starts` handed out a code.
    private func refusal(_ starts: [Start]) -> Finding {
        let coded = starts.filter { $0.code != nil }
        let evidence = starts.map { "\($0.label): \($0.summary)" }
        guard coded.isEmpty else { return .fail("a code was returned: " + coded.map(\.label).joined(separator: "; "), evidence: evidence) }
        return .held("no code: " + starts.map(\.summary).joined(separator: "; "), evidence: evidence)
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
        let evidence = refused.map { "\($0.label): \($0.summary)" }
        context.ledger.record(
            .androidErrorType,
            recoverable.isEmpty
                ? .held("no wrong CLIENT_ID was answered as recoverable", evidence: evidence)
                : .fail("answered ERROR_TYPE 1 (recoverable): " + recoverable.map(\.label).joined(separator: "; "), evidence: evidence)
        )
    }

    /// Every result of the run, as the Google app reads it.
    private func contract(_ starts: [Start]) -> Finding {
        let broken = starts.compactMap { start in
            start.verdict.flatMap { $0.violations.isEmpty ? nil : "\(start.label): " + $0.violations.joined(separator: "; ") }
        }
        let judged = starts.filter { $0.result != nil }.count
        return broken.isEmpty ? .held("\(judged) results keep the contract") : .fail(broken.joined(separator: " | "))
    }

    /// `android.token-exchange` and `android.scope`: the codes exchanged as Google's server does.
    /// `scoped`: nil when its code was one already returned (`android.scope` is then skipped for it).
    private func exchanges(code: String, scoped: Start?, asked: [String], token: TokenEndpointTarget) async throws(AuditUnreachable) {
        let ledger = context.ledger
        let exchanger = TokenEndpointClient(
            tokenURL: token.url,
            clientID: target.clientID,
            clientSecret: token.clientSecret,
            authentication: token.clientAuth,
            httpClient: httpClient,
            logger: Logger(label: "appflip-audit", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        do {
            let tokens = try await exchanger.exchange(code: code, redirectURI: target.redirectURI)
            let violations = tokens.report.violations
            ledger.record(
                .androidTokenExchange,
                violations.isEmpty ? .held("exchanged with REDIRECT_URI: \(tokens.report.summary)") : .fail(violations.joined(separator: "; "))
            )
        } catch {
            ledger.record(.androidTokenExchange, .fail("the code the app returned, exchanged with REDIRECT_URI \(target.redirectURI): \(error)"))
        }
        guard let scoped else { return }
        guard let scopedCode = scoped.code else {
            ledger.record(.androidScope, .fail("an intent with SCOPE [\(asked[0])] got no code: \(scoped.summary)"))
            return
        }
        ledger.set(.tokenScope, .met, for: .androidScope)
        do {
            let tokens = try await exchanger.exchange(code: scopedCode, redirectURI: target.redirectURI)
            let granted = tokens.report.scopes
            if tokens.scope == nil {
                ledger.set(
                    .tokenScope,
                    .nothingToJudge(
                        "the token response names no scope (RFC 6749 §5.1: then the scopes are those asked), so a lost SCOPE cannot be seen"
                    ),
                    for: .androidScope
                )
            } else if Set(granted) == Set(asked) {
                ledger.record(.androidScope, .held("asked [\(asked[0])], the tokens carry \"\(granted.joined(separator: " "))\""))
            } else {
                ledger.record(
                    .androidScope,
                    .fail(
                        "lost scopes: asked [\(asked[0])] as a String[], the tokens carry \"\(granted.joined(separator: " "))\" (SCOPE read with getStringExtra is null, and the server grants its default)"
                    )
                )
            }
        } catch {
            let why = "the code for SCOPE [\(asked[0])] did not exchange: \(error)"
            ledger.record(.androidTokenExchange, .fail(why))
            ledger.set(.androidCode, .brokeRule(.androidTokenExchange, why), for: .androidScope)
        }
    }
}
