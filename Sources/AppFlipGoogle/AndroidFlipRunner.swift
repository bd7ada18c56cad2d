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
        var report = FlipReport(link: intent.uri(component: nil), state: nil, redirectURI: redirectURI, android: true)
        if unlink != nil { report.unlinked = false }
        await flip(into: &report, connection: connection, httpClient: httpClient, logger: logger)
        if unlink != nil {
            for step in [FlipReport.StepName.tokensRevoked, .revocationConfirmed] where !report.steps.contains(where: { $0.step == step.rawValue }) {
                report.record(step, .skipped, milliseconds: nil)
            }
        }
        return report
    }

    private func flip(into report: inout FlipReport, connection: AppFlipConnection, httpClient: HTTPClient?, logger: Logger) async {
        let sent = WallClock.now()
        let reply: Reply
        do {
            reply = try await withTimeout(timeout) { try await connection.send(.start(StartRequest(intent: intent, forResult: true))).get() }
        } catch {
            report.fail(.linkOpened, milliseconds: WallClock.since(sent), "no reply from appflipd within \(timeout): \(error)", exitStatus: 1)
            return
        }
        let handled = WallClock.since(sent)
        let started: StartResult
        switch reply.outcome {
        case .success(.start(let result)):
            started = result
        case .success(let other):
            report.fail(.linkOpened, milliseconds: nil, "unexpected \(other.op.rawValue) reply", exitStatus: 1)
            return
        case .failure(let error):
            report.app = error.app
            if error.code == .timeout || error.code == .handlerFailed {
                report.record(.linkOpened, .ok, milliseconds: nil, "resolved to \(error.app ?? "?")")
                report.fail(.codeObtained, milliseconds: handled, "the app returned no result: \(error.message)", exitStatus: 1)
            } else {
                report.fail(.linkOpened, milliseconds: handled, "\(error.code.rawValue): \(error.message)", exitStatus: 1)
            }
            return
        }
        report.app = started.app
        report.record(.linkOpened, .ok, milliseconds: nil, "resolved to \(started.activity) of \(started.app)")
        guard let result = started.result else {
            report.fail(.parametersChecked, milliseconds: handled, "appflipd returned no result to a start for a result", exitStatus: 1)
            return
        }
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
            report.result = "code"
            report.record(.parametersChecked, .ok, milliseconds: nil, "accepted (steps 2 and 3 are timed together: the app's own work)")
            report.record(.codeObtained, .ok, milliseconds: handled, "\(code.utf8.count) bytes, sha256:\(Fingerprint.of(code))")
            report.record(.resultDelivered, .ok, milliseconds: nil, "RESULT_OK with AUTHORIZATION_CODE")
            guard let tokenEndpoint, let httpClient else {
                report.record(.tokensExchanged, .skipped, milliseconds: nil, "--no-exchange")
                return
            }
            await exchange(code, at: tokenEndpoint, httpClient: httpClient, logger: logger, into: &report)
        }
    }

    /// Step 5, as Google's server does it: the code with `REDIRECT_URI`, then one refresh.
    private func exchange(
        _ code: String,
        at tokenEndpoint: TokenEndpoint,
        httpClient: HTTPClient,
        logger: Logger,
        into report: inout FlipReport
    ) async {
        let exchanger = TokenEndpointClient(
            tokenURL: tokenEndpoint.url,
            clientID: clientID,
            clientSecret: tokenEndpoint.clientSecret,
            httpClient: httpClient,
            logger: logger
        )
        let started = WallClock.now()
        var issued: [TokenResponse] = []
        do {
            let tokens = try await exchanger.exchange(code: code, redirectURI: redirectURI)
            issued.append(tokens)
            report.tokens = tokens.report
            if let refreshToken = tokens.refreshToken {
                let refreshed = try await exchanger.refresh(refreshToken: refreshToken)
                issued.append(refreshed)
                report.refreshed = refreshed.refreshReport
            }
        } catch {
            report.fail(.tokensExchanged, milliseconds: WallClock.since(started), "\(tokenEndpoint.url): \(error)", exitStatus: 1)
            return
        }
        let broken = (report.tokens?.violations ?? []) + (report.refreshed?.violations.map { "refresh: \($0)" } ?? [])
        guard broken.isEmpty else {
            report.fail(
                .tokensExchanged,
                milliseconds: WallClock.since(started),
                "the token response breaks Google's account-linking rules: " + broken.joined(separator: "; "),
                exitStatus: 2
            )
            return
        }
        report.record(.tokensExchanged, .ok, milliseconds: WallClock.since(started), report.tokens?.summary)
        if let unlink { await FlipRunner.unlink(unlink, issued: issued, exchanger: exchanger, report: &report) }
    }
}
