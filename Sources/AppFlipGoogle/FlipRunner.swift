public import AppFlipClient
public import AppFlipCore
import AppFlipProtocol
public import AsyncHTTPClient
public import Logging
import NIOCore

/// One App Flip, played as the Google app: send the flip link, take the result URL delivered to the
/// registered Google app, check it, and exchange the code (then refresh) as Google's server would.
public struct FlipRunner: Sendable {
    /// The partner's universal link the flip starts from, without the App Flip parameters.
    public var partnerLink: RawURL
    /// The `client_id` Google sends: the partner's OAuth client id.
    public var clientID: String
    /// The scopes Google asks for, sent as the space-separated `scope`.
    public var scopes: [String]
    /// The `state` Google sends and expects back unchanged.
    public var state: String
    /// The `redirect_uri` Google sends: which Google app the result returns to.
    public var redirectURI: AppFlipRedirectURI
    /// nil: stop after the result is checked (`--no-exchange`).
    public var tokenEndpoint: TokenEndpoint?
    /// Refresh once after the exchange, as Google does before the access token expires.
    public var refreshes: Bool
    /// How long to wait for the daemon's reply.
    public var timeout: Duration
    /// After linking, unlink as Google does (`--unlink`): revoke, then confirm the tokens are dead.
    public var unlink: Unlink?

    /// What `--unlink` calls and checks.
    public struct Unlink: Sendable, Hashable {
        /// The partner's RFC 7009 revocation endpoint; nil to read `revocation_endpoint` from the RFC 8414
        /// metadata at the token endpoint's origin.
        public var revocationURL: String?
        /// A protected resource the access tokens must no longer open; nil to skip that check.
        public var resourceURL: String?

        /// Unlinks at `revocationURL` (nil: from the metadata), checking `resourceURL` if given.
        public init(revocationURL: String? = nil, resourceURL: String? = nil) {
            self.revocationURL = revocationURL
            self.resourceURL = resourceURL
        }
    }

    /// Creates a runner for one flip; nothing is sent until it runs.
    public init(
        partnerLink: RawURL,
        clientID: String,
        scopes: [String],
        state: String,
        redirectURI: AppFlipRedirectURI,
        tokenEndpoint: TokenEndpoint?,
        refreshes: Bool = true,
        timeout: Duration,
        unlink: Unlink? = nil
    ) {
        self.unlink = unlink
        self.partnerLink = partnerLink
        self.clientID = clientID
        self.scopes = scopes
        self.state = state
        self.redirectURI = redirectURI
        self.tokenEndpoint = tokenEndpoint
        self.refreshes = refreshes
        self.timeout = timeout
    }

    /// The flip link: the partner's universal link with `client_id`, `scope`, `state` and `redirect_uri`.
    public var link: String {
        FlipLink.link(to: partnerLink, clientID: clientID, scopes: scopes, state: state, redirectURI: redirectURI.string)
    }

    /// Plays one flip. Several may run at once on one connection and one ``GoogleApp``.
    ///
    /// - Parameters:
    ///   - events: the daemon's `watch` stream, collected by ``FlipEventLog``, for the per-step times.
    ///   - httpClient: for the token endpoint; nil only with no ``tokenEndpoint``.
    public func run(
        connection: AppFlipConnection,
        google: GoogleApp,
        events: FlipEventLog?,
        httpClient: HTTPClient?,
        logger: Logger
    ) async
        -> FlipReport
    {
        var report = FlipReport(link: link, state: state, redirectURI: redirectURI.string, unlinked: unlink.map { _ in false })
        if let code = await obtainCode(into: &report, connection: connection, google: google, events: events) {
            let tokens = TokenStep(endpoint: tokenEndpoint, clientID: clientID, redirectURI: redirectURI.string, refreshes: refreshes, unlink: unlink)
            await tokens.run(code: code, httpClient: httpClient, logger: logger, into: &report)
        }
        report.skipUnreached()
        return report
    }

    /// Steps 1 to 4, the Google app's side of a link: the code the result URL carries once all four passed,
    /// else nil with the step that stopped the flow recorded.
    private func obtainCode(into report: inout FlipReport, connection: AppFlipConnection, google: GoogleApp, events: FlipEventLog?) async -> String? {
        let link = self.link
        let sent = WallClock.now()
        google.expectResult(state: state)
        let reply = await send(link, on: connection, sent: sent, into: &report)
        let replied = WallClock.now()
        let taken = google.takeResult(state: state, opened: reply.map(Self.opened(by:)) ?? [])
        guard let reply else { return nil }
        let url: String? =
            switch taken {
            case .result(let url)?, .unclaimed(let url, _)?: url
            case nil: nil
            }
        let times = await events?.times(link: link, result: url, sent: sent, delivered: replied)
        guard let result = routed(reply, times: times, elapsed: WallClock.between(sent, replied), into: &report) else { return nil }
        guard let resultURL = delivered(result, taken: taken, to: google, times: times, into: &report) else { return nil }
        return check(resultURL, times: times, into: &report)
    }

    /// Sends the flip link with `open`, universal links only, as the Google app does: the daemon's reply, or
    /// nil once step 1 has failed for want of one within ``timeout``.
    private func send(_ link: String, on connection: AppFlipConnection, sent: Double, into report: inout FlipReport) async -> Reply? {
        let request = OpenRequest(
            activity: Activity(activityType: browsingWebActivityType, webpageURL: link),
            options: OpenOptions(universalLinksOnly: true)
        )
        do {
            return try await withTimeout(timeout) { try await connection.send(.open(request)).get() }
        } catch {
            report.fail(.linkOpened, milliseconds: WallClock.since(sent), "no reply from appflipd within \(timeout): \(error)", exitStatus: 1)
            return nil
        }
    }

    /// What the partner app opened, as the daemon's reply lists it, whatever the outcome.
    private static func opened(by reply: Reply) -> [OpenedURL] {
        switch reply.outcome {
        case .success(.open(let result)): result.opened
        case .success: []
        case .failure(let error): error.opened ?? []
        }
    }

    /// Step 1, the universal link opened: the partner app the daemon routed the link to, which continued;
    /// nil once the flow has stopped. A decline is step 2's failure, an app that never answered step 3's.
    /// `elapsed`: milliseconds from the link sent to the reply.
    private func routed(_ reply: Reply, times: FlipTimes?, elapsed: Double, into report: inout FlipReport) -> OpenResult? {
        let error: ErrorBody
        switch reply.outcome {
        case .success(.open(let result)):
            report.app = result.app
            report.record(.linkOpened, .ok, milliseconds: times?.routed, "routed to \(result.app ?? "?") by \(result.rule ?? "?")")
            return result
        case .success(let other):
            report.fail(.linkOpened, milliseconds: nil, "unexpected \(other.op.rawValue) reply", exitStatus: 1)
            return nil
        case .failure(let failure):
            error = failure
        }
        report.app = error.app
        switch error.code {
        case .declined:
            report.record(.linkOpened, .ok, milliseconds: times?.routed, "routed to \(error.app ?? "?")")
            report.fail(
                .parametersChecked,
                milliseconds: times?.handled,
                "the app declined the link (continue: false) and opened nothing: "
                    + (error.reason ?? "it gave no reason (a client_id or redirect_uri refused, or a scripted decline)"),
                exitStatus: 1
            )
        case .timeout, .handlerFailed:
            report.record(.linkOpened, .ok, milliseconds: times?.routed, "routed to \(error.app ?? "?")")
            report.fail(.codeObtained, milliseconds: times?.handled, "the app did not answer: \(error.message)", exitStatus: 1)
        default:
            report.fail(.linkOpened, milliseconds: elapsed, "\(error.code.rawValue): \(error.message)", exitStatus: 1)
        }
        return nil
    }

    /// What reached the Google app: the result URL to check, which the app opened once, universal links
    /// only, on the `redirect_uri`, delivered to the Google app and carrying this flip's state; nil once
    /// step 4 (or 2, when the app opened nothing) has failed. Opening it otherwise is a violation.
    private func delivered(
        _ result: OpenResult,
        taken: GoogleApp.Taken?,
        to google: GoogleApp,
        times: FlipTimes?,
        into report: inout FlipReport
    ) -> String? {
        guard let opened = result.opened.first else {
            report.fail(.parametersChecked, milliseconds: times?.handled, "the app continued but opened no result URL", exitStatus: 2)
            return nil
        }
        let openedBase = URLDifference.base(of: opened.url)
        let refusal: String
        if openedBase != redirectURI.string {
            refusal =
                "opened \(opened.url), not the redirect_uri \(redirectURI.string): \(URLDifference.describe(openedBase, expected: redirectURI.string))"
        } else if opened.status != .delivered {
            let why = opened.error.map { "\($0.code.rawValue): \($0.message)" } ?? opened.status.rawValue
            refusal = "the result URL \(opened.url) was not delivered to the Google app: \(why)"
        } else if opened.app != google.appID {
            refusal = "the result URL \(opened.url) was delivered to \(opened.app ?? "?"), not to the Google app \(google.appID)"
        } else {
            if !opened.universalLinksOnly {
                report.violations.append("the app opened the result URL without universal-links-only: another app or a browser could take it")
            }
            if result.opened.count > 1 {
                report.violations.append("the app opened \(result.opened.count) URLs; exactly one result URL is allowed")
            }
            switch taken {
            case .result(let url)?:
                return url
            case .unclaimed(let url, let shown)?:
                unclaimed(url, shown: shown, times: times, into: &report)
                return nil
            case nil:
                refusal =
                    "the result URL \(opened.url) reached the Google app carrying another flip's state: it is that flip's result, not this one's"
            }
        }
        report.record(.parametersChecked, .ok, milliseconds: nil)
        report.record(.codeObtained, .ok, milliseconds: times?.handled)
        report.fail(.resultDelivered, milliseconds: nil, refusal, exitStatus: 2)
        return nil
    }

    /// Step 4 failed: the app opened a URL whose state matched no flip in flight, or a code without a state
    /// (``GoogleApp/Taken/unclaimed(url:shown:)``), which the Google app would not take, so this flip has no
    /// result. The state rule it broke is said; the rest of the URL is not judged, since it is no result.
    private func unclaimed(_ url: String, shown: String, times: FlipTimes?, into report: inout FlipReport) {
        let broken = FlipResultChecker(redirectURI: redirectURI.string, state: state).check(url).violations.filter {
            switch $0 {
            case .stateMismatch, .stateMissing: true
            case .notUTF8(let parameter): parameter == "state"
            case .duplicated(let parameter, _): parameter == "state"
            default: false
            }
        }
        report.violations += broken.map(\.description)
        let which = broken.contains(.stateMissing) ? "which carries a code but no state" : "whose state matched no flip in flight"
        report.record(.parametersChecked, .ok, milliseconds: nil)
        report.record(.codeObtained, .ok, milliseconds: times?.handled)
        report.fail(
            .resultDelivered,
            milliseconds: times?.delivered,
            "no result for this flip: the app opened \(shown), \(which), so the Google app would not take it"
                + (report.violations.isEmpty ? "" : ": " + report.violations.joined(separator: "; ")),
            exitStatus: 2
        )
    }

    /// Steps 2 to 4 as the result URL tells them (``FlipResultChecker``): the code, when the app accepted
    /// the request and the result keeps every rule; else nil, with the app's error or the rules it broke.
    private func check(_ resultURL: String, times: FlipTimes?, into report: inout FlipReport) -> String? {
        let verdict = FlipResultChecker(redirectURI: redirectURI.string, state: state).check(resultURL)
        report.violations += verdict.violations.map(\.description)
        report.deviations = verdict.deviations.map(\.description)
        switch verdict.outcome {
        case .error(let error, let description)?:
            answered(error, description: description, times: times, into: &report)
            return nil
        case .code(let code)?:
            report.recordCode(code, milliseconds: times?.handled)
            guard report.violations.isEmpty else {
                report.fail(
                    .resultDelivered,
                    milliseconds: times?.delivered,
                    "the result URL breaks App Flip's rules: " + report.violations.joined(separator: "; "),
                    exitStatus: 2
                )
                return nil
            }
            report.record(.resultDelivered, .ok, milliseconds: times?.delivered, "state echoed byte for byte")
            return code
        case nil:
            report.record(.parametersChecked, .ok, milliseconds: nil)
            report.record(.codeObtained, .ok, milliseconds: times?.handled)
            report.fail(
                .resultDelivered,
                milliseconds: times?.delivered,
                "the result URL is not a valid App Flip result: " + report.violations.joined(separator: "; "),
                exitStatus: 2
            )
            return nil
        }
    }

    /// The app answered an App Flip error: `invalid_request` fails step 2 (the parameters), `cancelled` and
    /// `unrecoverable` step 3 (no code); exit 1, or 2 when the result also broke a rule.
    private func answered(_ error: FlipErrorCode, description: String?, times: FlipTimes?, into report: inout FlipReport) {
        report.result = error.rawValue
        report.errorDescription = description
        let described = description.map { ": \($0)" } ?? ""
        let exitStatus: Int32 = report.violations.isEmpty ? 1 : 2
        guard error != .invalidRequest else {
            report.record(.parametersChecked, .failed, milliseconds: nil, "the app answered invalid_request" + described)
            report.failure = "step 2 (app checked the parameters) failed: invalid_request" + described
            report.exitStatus = exitStatus
            return
        }
        report.record(.parametersChecked, .ok, milliseconds: nil)
        report.fail(.codeObtained, milliseconds: times?.handled, "the app answered error=\(error.rawValue)" + described, exitStatus: exitStatus)
    }
}
