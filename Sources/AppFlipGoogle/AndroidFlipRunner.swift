public import AppFlipClient
public import AppFlipCore
import AppFlipProtocol
public import AsyncHTTPClient
public import Logging
import NIOCore

/// One App Flip for Android, played as the Google app: register the Google app's Android identity, start the
/// partner's App Flip activity for a result with `CLIENT_ID`, `SCOPE` (a `String[]`) and `REDIRECT_URI`,
/// check the result contract, then exchange the code with the same `REDIRECT_URI` and refresh, as Google's
/// server would.
public struct AndroidFlipRunner: Sendable {
    /// The partner's package, `Intent.setPackage`.
    public var package: String
    /// The App Flip action the partner entered in the console.
    public var action: String
    /// The `CLIENT_ID` Google sends.
    public var clientID: String
    /// The `SCOPE` Google sends.
    public var scopes: [String]
    /// The `REDIRECT_URI` Google sends and exchanges the code with.
    public var redirectURI: String
    /// nil: stop after the result is checked (`--no-exchange`).
    public var tokenEndpoint: TokenEndpoint?
    /// How long to wait for the daemon's reply.
    public var timeout: Duration
    /// After linking, unlink as Google does (`--unlink`).
    public var unlink: FlipRunner.Unlink?

    /// Creates a runner for one flip; nothing is sent until it runs.
    public init(
        package: String,
        action: String,
        clientID: String,
        scopes: [String],
        redirectURI: String,
        tokenEndpoint: TokenEndpoint?,
        timeout: Duration,
        unlink: FlipRunner.Unlink? = nil
    ) {
        self.package = package
        self.action = action
        self.clientID = clientID
        self.scopes = scopes
        self.redirectURI = redirectURI
        self.tokenEndpoint = tokenEndpoint
        self.timeout = timeout
        self.unlink = unlink
    }

    /// The intent the Google app sends.
    public var intent: Intent {
        AndroidAppFlip.intent(action: action, package: package, clientID: clientID, scopes: scopes, redirectURI: redirectURI)
    }

    /// Registers `caller` on `connection` as the Google app's Android identity, the way the daemon's claim
    /// policy allows; a claim conflict (the Google app of a run that has just ended) is retried for two seconds.
    public static func register(as caller: AndroidCaller, on connection: AppFlipConnection) async throws {
        let registration = RegisterRequest(
            appID: GoogleApp.appID(bundleID: caller.package),
            domains: [],
            android: AndroidIdentity(package: caller.package, fingerprints: caller.fingerprints)
        )
        for attempt in 1... {
            do {
                _ = try await connection.register(registration, handler: ImmediateLiveApp())
                return
            } catch let error as ErrorBody where error.code == .claimConflict && attempt < 40 {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    /// Plays one flip on a connection registered with ``register(as:on:)``.
    public func run(connection: AppFlipConnection, httpClient: HTTPClient?, logger: Logger) async -> FlipReport {
        var report = FlipReport(
            link: intent.uri(component: nil),
            state: nil,
            redirectURI: redirectURI,
            android: true,
            unlinked: unlink.map { _ in false }
        )
        if let code = await obtainCode(into: &report, connection: connection) {
            // Step 5 as Google's server does it: the code with `REDIRECT_URI`, then one refresh.
            let tokens = TokenStep(endpoint: tokenEndpoint, clientID: clientID, redirectURI: redirectURI, refreshes: true, unlink: unlink)
            await tokens.run(code: code, httpClient: httpClient, logger: logger, into: &report)
        }
        report.skipUnreached()
        return report
    }

    /// Steps 1 to 4, the Google app's side on Android: the code the activity's result carries once all four
    /// passed, else nil with the step that stopped the flow recorded.
    private func obtainCode(into report: inout FlipReport, connection: AppFlipConnection) async -> String? {
        let sent = WallClock.now()
        let reply: Reply
        do {
            reply = try await withTimeout(timeout) { try await connection.send(.start(StartRequest(intent: intent, forResult: true))).get() }
        } catch {
            report.fail(.linkOpened, milliseconds: WallClock.since(sent), "no reply from appflipd within \(timeout): \(error)", exitStatus: 1)
            return nil
        }
        let handled = WallClock.since(sent)
        guard let started = self.started(reply, handled: handled, into: &report) else { return nil }
        guard let result = started.result else {
            report.fail(.parametersChecked, milliseconds: handled, "appflipd returned no result to a start for a result", exitStatus: 1)
            return nil
        }
        return check(result, handled: handled, into: &report)
    }

    /// Step 1, the intent started: the activity the daemon resolved it to, which returned; nil once the flow
    /// has stopped (an app that returned nothing fails step 3). `handled`: milliseconds from the start sent
    /// to the reply.
    private func started(_ reply: Reply, handled: Double, into report: inout FlipReport) -> StartResult? {
        switch reply.outcome {
        case .success(.start(let started)):
            report.app = started.app
            report.record(.linkOpened, .ok, milliseconds: nil, "resolved to \(started.activity) of \(started.app)")
            return started
        case .success(let other):
            report.fail(.linkOpened, milliseconds: nil, "unexpected \(other.op.rawValue) reply", exitStatus: 1)
        case .failure(let error):
            report.app = error.app
            if error.code == .timeout || error.code == .handlerFailed {
                report.record(.linkOpened, .ok, milliseconds: nil, "resolved to \(error.app ?? "?")")
                report.fail(.codeObtained, milliseconds: handled, "the app returned no result: \(error.message)", exitStatus: 1)
            } else {
                report.fail(.linkOpened, milliseconds: handled, "\(error.code.rawValue): \(error.message)", exitStatus: 1)
            }
        }
        return nil
    }

    /// Steps 2 to 4 as the activity's result tells them (``AndroidFlipResultChecker``): the code, when the
    /// app returned `RESULT_OK` with one and kept the contract; else nil, with what it returned instead.
    private func check(_ result: IntentResult, handled: Double, into report: inout FlipReport) -> String? {
        let verdict = AndroidFlipResultChecker.check(result)
        report.violations = verdict.violations
        report.deviations = verdict.unknownExtras.map { "the result carries the extra \($0), which App Flip does not define" }
        switch verdict.outcome {
        case nil:
            report.record(.parametersChecked, .ok, milliseconds: nil)
            report.record(.codeObtained, .ok, milliseconds: handled)
            report.fail(
                .resultDelivered,
                milliseconds: nil,
                "the result breaks App Flip's contract: " + verdict.violations.joined(separator: "; "),
                exitStatus: 2
            )
        case .canceled:
            report.result = "RESULT_CANCELED"
            report.fail(
                .parametersChecked,
                milliseconds: handled,
                "the app returned RESULT_CANCELED (0): the user backed out, or the app refused the caller",
                exitStatus: 1
            )
        case .error(let type, let code, let description):
            report.result = "ERROR_TYPE \(type)"
            report.errorDescription = description
            let what = "the app returned error type \(type), ERROR_CODE \(code)" + (description.map { ": \($0)" } ?? "")
            if type == .invalidRequest {
                report.fail(.parametersChecked, milliseconds: handled, what, exitStatus: 1)
            } else {
                report.record(.parametersChecked, .ok, milliseconds: nil)
                report.fail(.codeObtained, milliseconds: handled, what, exitStatus: 1)
            }
        case .code(let code):
            report.recordCode(code, milliseconds: handled)
            report.record(.resultDelivered, .ok, milliseconds: nil, "RESULT_OK with AUTHORIZATION_CODE")
            return code
        }
        return nil
    }
}
