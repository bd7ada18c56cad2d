public import AppFlipClient
public import AppFlipCore
import AppFlipOAuth
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

    /// Creates a runner for one flip; nothing is sent until it runs.
    public init(
        partnerLink: RawURL, clientID: String, scopes: [String], state: String, redirectURI: AppFlipRedirectURI,
        tokenEndpoint: TokenEndpoint?, refreshes: Bool = true, timeout: Duration
    ) {
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
    public func run(connection: AppFlipConnection, google: GoogleApp, events: FlipEventLog?, httpClient: HTTPClient?, logger: Logger) async
        -> FlipReport
    {
        let link = self.link
        var report = FlipReport(link: link, state: state, redirectURI: redirectURI.string)
        let sent = WallClock.now()
        let request = OpenRequest(activity: Activity(activityType: browsingWebActivityType, webpageURL: link), options: OpenOptions(universalLinksOnly: true))
        let reply: Reply
        do {
            reply = try await withTimeout(timeout) { try await connection.send(.open(request)).get() }
        } catch {
            report.fail(.linkOpened, milliseconds: WallClock.since(sent), "no reply from appflipd within \(timeout): \(error)", exitStatus: 1)
            return report
        }
        let replied = WallClock.now()
        let resultURL = google.takeResult(state: state)
        let times = await events?.times(link: link, result: resultURL, sent: sent, delivered: replied)

        let result: OpenResult
        switch reply.outcome {
        case .success(.open(let open)):
            result = open
        case .success(let other):
            report.fail(.linkOpened, milliseconds: nil, "unexpected \(other.op.rawValue) reply", exitStatus: 1)
            return report
        case .failure(let error):
            report.app = error.app
            switch error.code {
            case .declined:
                report.record(.linkOpened, .ok, milliseconds: times?.routed, "routed to \(error.app ?? "?")")
                report.fail(
                    .parametersChecked, milliseconds: times?.handled,
                    "the app declined the link (continue: false) and opened nothing: it refused the client_id or the redirect_uri, or was scripted to decline (appflipd's log says why)",
                    exitStatus: 1)
            case .timeout, .handlerFailed:
                report.record(.linkOpened, .ok, milliseconds: times?.routed, "routed to \(error.app ?? "?")")
                report.fail(.codeObtained, milliseconds: times?.handled, "the app did not answer: \(error.message)", exitStatus: 1)
            default:
                report.fail(.linkOpened, milliseconds: WallClock.between(sent, replied), "\(error.code.rawValue): \(error.message)", exitStatus: 1)
            }
            return report
        }
        report.app = result.app
        report.record(.linkOpened, .ok, milliseconds: times?.routed, "routed to \(result.app ?? "?") by \(result.rule ?? "?")")
        guard let opened = result.opened.first else {
            report.fail(.parametersChecked, milliseconds: times?.handled, "the app continued but opened no result URL", exitStatus: 2)
            return report
        }
        guard opened.status == .delivered, let resultURL else {
            report.record(.parametersChecked, .ok, milliseconds: nil)
            report.record(.codeObtained, .ok, milliseconds: times?.handled)
            let why = opened.error.map { "\($0.code.rawValue): \($0.message)" } ?? opened.status.rawValue
            report.fail(.resultDelivered, milliseconds: nil, "the result URL \(opened.url) was not delivered to the Google app: \(why)", exitStatus: 2)
            return report
        }
        if result.opened.count > 1 {
            report.violations.append("the app opened \(result.opened.count) URLs; exactly one result URL is allowed")
        }

        let verdict = FlipResultChecker(redirectURI: redirectURI.string, state: state).check(resultURL)
        report.violations += verdict.violations.map(\.description)
        report.deviations = verdict.deviations.map(\.description)
        switch verdict.outcome {
        case .error(let error, let description)?:
            report.result = error.rawValue
            report.errorDescription = description
            let checked = error != .invalidRequest
            report.record(.parametersChecked, checked ? .ok : .failed, milliseconds: nil,
                checked ? nil : "the app answered invalid_request" + (description.map { ": \($0)" } ?? ""))
            if checked {
                report.fail(.codeObtained, milliseconds: times?.handled,
                    "the app answered error=\(error.rawValue)" + (description.map { ": \($0)" } ?? ""), exitStatus: report.violations.isEmpty ? 1 : 2)
            } else {
                report.record(.codeObtained, .skipped, milliseconds: nil)
                report.record(.resultDelivered, .skipped, milliseconds: nil)
                report.record(.tokensExchanged, .skipped, milliseconds: nil)
                report.failure = "step 2 (app checked the parameters) failed: invalid_request" + (description.map { ": \($0)" } ?? "")
                report.exitStatus = report.violations.isEmpty ? 1 : 2
            }
            return report
        case .code(let code)?:
            report.result = "code"
            report.record(.parametersChecked, .ok, milliseconds: nil, "accepted (steps 2 and 3 are timed together: the app's own work)")
            report.record(.codeObtained, .ok, milliseconds: times?.handled, "\(code.utf8.count) bytes, sha256:\(Fingerprint.of(code))")
            guard report.violations.isEmpty else {
                report.fail(.resultDelivered, milliseconds: times?.delivered, "the result URL breaks App Flip's rules: " + report.violations.joined(separator: "; "), exitStatus: 2)
                return report
            }
            report.record(.resultDelivered, .ok, milliseconds: times?.delivered, "state echoed byte for byte")
            guard let tokenEndpoint, let httpClient else {
                report.record(.tokensExchanged, .skipped, milliseconds: nil, "--no-exchange")
                return report
            }
            let exchanger = TokenExchangeClient(
                tokenURL: tokenEndpoint.url, clientID: clientID, clientSecret: tokenEndpoint.clientSecret, httpClient: httpClient, logger: logger)
            let started = WallClock.now()
            do {
                let tokens = try await exchanger.exchange(code: code, redirectURI: redirectURI.string)
                report.tokens = tokens.report
                if refreshes, let refreshToken = tokens.refreshToken {
                    report.refreshed = try await exchanger.refresh(refreshToken: refreshToken).report
                }
            } catch {
                report.fail(.tokensExchanged, milliseconds: WallClock.since(started), "\(tokenEndpoint.url): \(error)", exitStatus: 1)
                return report
            }
            let broken = (report.tokens?.violations ?? []) + (report.refreshed?.violations.map { "refresh: \($0)" } ?? [])
            if broken.isEmpty {
                report.record(.tokensExchanged, .ok, milliseconds: WallClock.since(started), report.tokens?.summary)
            } else {
                report.fail(.tokensExchanged, milliseconds: WallClock.since(started), "the token response breaks Google's account-linking rules: " + broken.joined(separator: "; "), exitStatus: 2)
            }
            return report
        case nil:
            report.record(.parametersChecked, .ok, milliseconds: nil)
            report.record(.codeObtained, .ok, milliseconds: times?.handled)
            report.fail(.resultDelivered, milliseconds: times?.delivered, "the result URL is not a valid App Flip result: " + report.violations.joined(separator: "; "), exitStatus: 2)
            return report
        }
    }
}
