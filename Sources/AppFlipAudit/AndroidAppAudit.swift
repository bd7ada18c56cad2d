public import AppFlipClient
public import AppFlipCore
import AppFlipGoogle
public import AppFlipHTTPClient
import AppFlipProtocol
public import AsyncHTTPClient
import Logging
import NIOCore

/// The partner's Android App Flip activity an audit checks, through appflipd: the intent's package and
/// action, what Google sends in it, and the Google identity the partner allows.
public struct AndroidAppTarget: Sendable, Hashable {
    /// `--android-package`.
    public var package: String
    /// `--android-action`.
    public var action: String
    /// `CLIENT_ID`.
    public var clientID: String
    /// `SCOPE`, at least one.
    public var scopes: [String]
    /// `REDIRECT_URI`.
    public var redirectURI: String
    /// The Google app's identity as the partner allows it (`--caller-package`, `--caller-fingerprint`).
    public var caller: AndroidCaller
    /// How long to wait for each start's reply.
    public var timeout: Duration

    /// Creates the target.
    public init(package: String, action: String, clientID: String, scopes: [String], redirectURI: String, caller: AndroidCaller, timeout: Duration) {
        self.package = package
        self.action = action
        self.clientID = clientID
        self.scopes = scopes
        self.redirectURI = redirectURI
        self.caller = caller
        self.timeout = timeout
    }
}

/// The Android checks: intents started as the Google app and as others, each result judged as the Google app
/// reads it, and the code exchanged as Google's server does. Starts run one at a time, each from a connection
/// registered as the identity it needs.
public struct AndroidAppAudit: Sendable {
    public var target: AndroidAppTarget
    public var socketPath: String
    public var token: TokenEndpointTarget?
    public var httpClient: HTTPClient
    public var bounds: OutboundBounds

    /// The action Google's App Flip for Android page writes in its manifest example for the value entered in
    /// the console.
    public static let consolePlaceholder = "INTENT_ACTION_FROM_CONSOLE"
    /// The package the caller checks start as when they are not the Google app.
    static let otherPackage = "dev.appflip.audit.other"

    /// Creates the audit.
    public init(target: AndroidAppTarget, socketPath: String, token: TokenEndpointTarget?, httpClient: HTTPClient, bounds: OutboundBounds) {
        self.target = target
        self.socketPath = socketPath
        self.token = token
        self.httpClient = httpClient
        self.bounds = bounds
    }

    /// One start and what came back.
    struct Start {
        var label: String
        var result: IntentResult?
        var failure: String?

        var verdict: AndroidFlipResultChecker.Verdict? { result.map(AndroidFlipResultChecker.check) }
        /// Any non-empty `AUTHORIZATION_CODE`, whatever the result code: a code handed out.
        var code: String? {
            guard let value = result?.extras[AndroidAppFlip.authorizationCode]?.string, !value.isEmpty else { return nil }
            return value
        }
        var summary: String {
            if let failure { return failure }
            guard let result else { return "no result" }
            var parts = ["result code \(result.resultCode)"]
            for (name, extra) in result.redactedExtras.sorted(by: { $0.key < $1.key }) { parts.append("\(name)=\(extra)") }
            return parts.joined(separator: ", ")
        }
    }

    /// Runs every Android check. Throws only when appflipd cannot be reached.
    public func run() async throws(AuditUnreachable) -> [AuditResult] {
        var results: [AuditResult] = []
        var starts: [Start] = []
        let google = target.caller

        let placeholder = target.action == Self.consolePlaceholder
        results.append(
            AuditResult(
                .androidAction,
                placeholder ? .fail : .pass,
                placeholder
                    ? "the action is \(Self.consolePlaceholder), the placeholder of Google's example, not the partner's own"
                    : "the action is \(target.action)"
            )
        )

        let valid = try await start("the Google app's intent", as: google, extras: [:])
        starts.append(valid)
        guard let code = valid.code, valid.verdict?.outcome == .code(code) else {
            results.append(
                AuditResult(.androidCode, .couldNotRun, "the Google app's valid intent got no code: \(valid.summary)", evidence: [valid.label])
            )
            let needs: [AuditCheck] = [
                .androidCallerPackage, .androidCallerFingerprint, .androidCallerUnverified, .androidWrongClientID, .androidErrorType, .androidScope,
                .androidTokenExchange,
            ]
            results += needs.map { AuditResult($0, .skipped, "no code to compare with: android.code could not run") }
            results.append(contract(starts))
            return results
        }
        results.append(AuditResult(.androidCode, .pass, "RESULT_OK with a code of \(code.utf8.count) bytes, sha256:\(Fingerprint.of(code))"))

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
        starts += [otherPackage, otherKey, unverified]
        for (check, start) in [
            (AuditCheck.androidCallerPackage, otherPackage), (.androidCallerFingerprint, otherKey), (.androidCallerUnverified, unverified),
        ] {
            results.append(refusal(check, [start]))
        }

        var wrongIDs: [Start] = []
        for clientID in [
            target.clientID + "-other", target.clientID.uppercased() == target.clientID ? target.clientID.lowercased() : target.clientID.uppercased(),
            target.clientID + " ", "",
        ]
        where clientID != target.clientID {
            wrongIDs.append(try await start("CLIENT_ID \"\(clientID)\"", as: google, extras: [AndroidAppFlip.clientID: .string(clientID)]))
        }
        starts += wrongIDs
        results.append(refusal(.androidWrongClientID, wrongIDs))
        results.append(errorType(wrongIDs))

        let asked = [target.scopes[0]]
        let scoped = try await start("SCOPE [\(asked[0])]", as: google, extras: [AndroidAppFlip.scope: .stringArray(asked)])
        starts.append(scoped)
        results.append(contract(starts))

        guard let token else {
            let why = "no token endpoint: give --token-url and --client-secret, or --oauth-config"
            return results + [AuditResult(.androidScope, .skipped, why), AuditResult(.androidTokenExchange, .skipped, why)]
        }
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
            results.append(
                AuditResult(
                    .androidTokenExchange,
                    violations.isEmpty ? .pass : .fail,
                    violations.isEmpty ? "exchanged with REDIRECT_URI: \(tokens.report.summary)" : violations.joined(separator: "; ")
                )
            )
        } catch {
            results.append(
                AuditResult(.androidTokenExchange, .fail, "the code the app returned, exchanged with REDIRECT_URI \(target.redirectURI): \(error)")
            )
        }
        guard let scopedCode = scoped.code else {
            return results + [AuditResult(.androidScope, .fail, "an intent with SCOPE [\(asked[0])] got no code: \(scoped.summary)")]
        }
        do {
            let tokens = try await exchanger.exchange(code: scopedCode, redirectURI: target.redirectURI)
            let granted = tokens.report.scopes
            if tokens.scope == nil {
                results.append(
                    AuditResult(
                        .androidScope,
                        .skipped,
                        "the token response names no scope (RFC 6749 §5.1: then the scopes are those asked), so a lost SCOPE cannot be seen"
                    )
                )
            } else if Set(granted) == Set(asked) {
                results.append(AuditResult(.androidScope, .pass, "asked [\(asked[0])], the tokens carry \"\(granted.joined(separator: " "))\""))
            } else {
                results.append(
                    AuditResult(
                        .androidScope,
                        .fail,
                        "lost scopes: asked [\(asked[0])] as a String[], the tokens carry \"\(granted.joined(separator: " "))\" (SCOPE read with getStringExtra is null, and the server grants its default)"
                    )
                )
            }
        } catch {
            results.append(AuditResult(.androidScope, .couldNotRun, "the code for SCOPE [\(asked[0])] did not exchange: \(error)"))
        }
        return results
    }

    /// Pass when none of `starts` handed out a code.
    private func refusal(_ check: AuditCheck, _ starts: [Start]) -> AuditResult {
        let coded = starts.filter { $0.code != nil }
        let evidence = starts.map { "\($0.label): \($0.summary)" }
        guard coded.isEmpty else {
            return AuditResult(check, .fail, "a code was returned: " + coded.map(\.label).joined(separator: "; "), evidence: evidence)
        }
        return AuditResult(check, .pass, "no code: " + starts.map(\.summary).joined(separator: "; "), evidence: evidence)
    }

    /// A wrong `CLIENT_ID` refused as recoverable sends Google to web OAuth with the same request.
    private func errorType(_ starts: [Start]) -> AuditResult {
        let refused = starts.filter { $0.code == nil && $0.result != nil }
        guard !refused.isEmpty else { return AuditResult(.androidErrorType, .skipped, "no wrong CLIENT_ID was refused (android.wrong-client-id)") }
        let recoverable = refused.filter { $0.result?.extras[AndroidAppFlip.errorType]?.int == AndroidAppFlip.ErrorType.recoverable.rawValue }
        let evidence = refused.map { "\($0.label): \($0.summary)" }
        guard recoverable.isEmpty else {
            return AuditResult(
                .androidErrorType,
                .fail,
                "answered ERROR_TYPE 1 (recoverable): " + recoverable.map(\.label).joined(separator: "; "),
                evidence: evidence
            )
        }
        return AuditResult(.androidErrorType, .pass, "no wrong CLIENT_ID was answered as recoverable", evidence: evidence)
    }

    /// Every result of the run, as the Google app reads it.
    private func contract(_ starts: [Start]) -> AuditResult {
        let broken = starts.compactMap { start in
            start.verdict.flatMap { $0.violations.isEmpty ? nil : "\(start.label): " + $0.violations.joined(separator: "; ") }
        }
        let judged = starts.filter { $0.result != nil }.count
        guard broken.isEmpty else { return AuditResult(.androidResultContract, .fail, broken.joined(separator: " | ")) }
        return AuditResult(.androidResultContract, .pass, "\(judged) results keep the contract")
    }

    /// A fingerprint none of `fingerprints` is.
    static func otherFingerprint(than fingerprints: [String]) -> String {
        for pair in ["0F", "1E", "2D"] {
            let candidate = Array(repeating: pair, count: 32).joined(separator: ":")
            if !fingerprints.contains(candidate) { return candidate }
        }
        preconditionFailure("three distinct fingerprints cannot all be taken")
    }

    /// Starts the App Flip activity for a result from a connection registered as `caller` (nil: none), with
    /// the target's extras overridden by `extras`.
    private func start(_ label: String, as caller: AndroidCaller?, extras: [String: IntentExtra]) async throws(AuditUnreachable) -> Start {
        let connection: AppFlipConnection
        do {
            connection = try await AppFlipConnection.connect(to: socketPath, client: "appflip-audit-android")
        } catch {
            throw AuditUnreachable(DaemonUnreachable.sentence(socketPath: socketPath))
        }
        defer { Task { await connection.close() } }
        if let caller {
            do {
                try await AndroidFlipRunner.register(as: caller, on: connection)
            } catch {
                throw AuditUnreachable("cannot register as \(caller.package): \(error)")
            }
        }
        var intent = AndroidAppFlip.intent(
            action: target.action,
            package: target.package,
            clientID: target.clientID,
            scopes: target.scopes,
            redirectURI: target.redirectURI
        )
        intent.extras.merge(extras) { $1 }
        let request = StartRequest(intent: intent, forResult: true)
        do {
            let reply = try await withTimeout(target.timeout) {
                try await connection.send(.start(request)).get()
            }
            switch reply.outcome {
            case .success(.start(let started)): return Start(label: label, result: started.result)
            case .success(let other): return Start(label: label, failure: "unexpected \(other.op.rawValue) reply")
            case .failure(let error): return Start(label: label, failure: "\(error.code.rawValue): \(error.message)")
            }
        } catch {
            return Start(label: label, failure: "no reply from appflipd within \(target.timeout): \(error)")
        }
    }
}
