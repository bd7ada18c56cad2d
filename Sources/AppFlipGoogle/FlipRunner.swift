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
        var report = FlipReport(link: link, state: state, redirectURI: redirectURI.string)
        if unlink != nil { report.unlinked = false }
        await link(into: &report, connection: connection, google: google, events: events, httpClient: httpClient, logger: logger)
        if unlink != nil {
            for step in [FlipReport.StepName.tokensRevoked, .revocationConfirmed] where !report.steps.contains(where: { $0.step == step.rawValue }) {
                report.record(step, .skipped, milliseconds: nil)
            }
        }
        return report
    }

    /// Steps 1 to 5, then 6 and 7 with ``unlink``.
    private func link(
        into report: inout FlipReport,
        connection: AppFlipConnection,
        google: GoogleApp,
        events: FlipEventLog?,
        httpClient: HTTPClient?,
        logger: Logger
    ) async {
        let link = self.link
        let sent = WallClock.now()
        let request = OpenRequest(
            activity: Activity(activityType: browsingWebActivityType, webpageURL: link),
            options: OpenOptions(universalLinksOnly: true)
        )
        let reply: Reply
        do {
            reply = try await withTimeout(timeout) { try await connection.send(.open(request)).get() }
        } catch {
            report.fail(.linkOpened, milliseconds: WallClock.since(sent), "no reply from appflipd within \(timeout): \(error)", exitStatus: 1)
            return
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
            return
        case .failure(let error):
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
                report.fail(.linkOpened, milliseconds: WallClock.between(sent, replied), "\(error.code.rawValue): \(error.message)", exitStatus: 1)
            }
            return
        }
        report.app = result.app
        report.record(.linkOpened, .ok, milliseconds: times?.routed, "routed to \(result.app ?? "?") by \(result.rule ?? "?")")
        guard let opened = result.opened.first else {
            report.fail(.parametersChecked, milliseconds: times?.handled, "the app continued but opened no result URL", exitStatus: 2)
            return
        }
        let openedBase = URLDifference.base(of: opened.url)
        guard openedBase == redirectURI.string else {
            report.record(.parametersChecked, .ok, milliseconds: nil)
            report.record(.codeObtained, .ok, milliseconds: times?.handled)
            report.fail(
                .resultDelivered,
                milliseconds: nil,
                "opened \(opened.url), not the redirect_uri \(redirectURI.string): \(URLDifference.describe(openedBase, expected: redirectURI.string))",
                exitStatus: 2
            )
            return
        }
        guard opened.status == .delivered, let resultURL else {
            report.record(.parametersChecked, .ok, milliseconds: nil)
            report.record(.codeObtained, .ok, milliseconds: times?.handled)
            let why = opened.error.map { "\($0.code.rawValue): \($0.message)" } ?? opened.status.rawValue
            report.fail(
                .resultDelivered,
                milliseconds: nil,
                "the result URL \(opened.url) was not delivered to the Google app: \(why)",
                exitStatus: 2
            )
            return
        }
        if !opened.universalLinksOnly {
            report.violations.append("the app opened the result URL without universal-links-only: another app or a browser could take it")
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
            report.record(
                .parametersChecked,
                checked ? .ok : .failed,
                milliseconds: nil,
                checked ? nil : "the app answered invalid_request" + (description.map { ": \($0)" } ?? "")
            )
            if checked {
                report.fail(
                    .codeObtained,
                    milliseconds: times?.handled,
                    "the app answered error=\(error.rawValue)" + (description.map { ": \($0)" } ?? ""),
                    exitStatus: report.violations.isEmpty ? 1 : 2
                )
            } else {
                report.record(.codeObtained, .skipped, milliseconds: nil)
                report.record(.resultDelivered, .skipped, milliseconds: nil)
                report.record(.tokensExchanged, .skipped, milliseconds: nil)
                report.failure = "step 2 (app checked the parameters) failed: invalid_request" + (description.map { ": \($0)" } ?? "")
                report.exitStatus = report.violations.isEmpty ? 1 : 2
            }
            return
        case .code(let code)?:
            report.result = "code"
            report.record(.parametersChecked, .ok, milliseconds: nil, "accepted (steps 2 and 3 are timed together: the app's own work)")
            report.record(.codeObtained, .ok, milliseconds: times?.handled, "\(code.utf8.count) bytes, sha256:\(Fingerprint.of(code))")
            guard report.violations.isEmpty else {
                report.fail(
                    .resultDelivered,
                    milliseconds: times?.delivered,
                    "the result URL breaks App Flip's rules: " + report.violations.joined(separator: "; "),
                    exitStatus: 2
                )
                return
            }
            report.record(.resultDelivered, .ok, milliseconds: times?.delivered, "state echoed byte for byte")
            guard let tokenEndpoint, let httpClient else {
                report.record(.tokensExchanged, .skipped, milliseconds: nil, "--no-exchange")
                return
            }
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
                let tokens = try await exchanger.exchange(code: code, redirectURI: redirectURI.string)
                issued.append(tokens)
                report.tokens = tokens.report
                if refreshes, let refreshToken = tokens.refreshToken {
                    let refreshed = try await exchanger.refresh(refreshToken: refreshToken)
                    issued.append(refreshed)
                    report.refreshed = refreshed.refreshReport
                }
            } catch {
                report.fail(.tokensExchanged, milliseconds: WallClock.since(started), "\(tokenEndpoint.url): \(error)", exitStatus: 1)
                return
            }
            let broken = (report.tokens?.violations ?? []) + (report.refreshed?.violations.map { "refresh: \($0)" } ?? [])
            if broken.isEmpty {
                report.record(.tokensExchanged, .ok, milliseconds: WallClock.since(started), report.tokens?.summary)
                if let unlink {
                    await Self.unlink(unlink, issued: issued, exchanger: exchanger, report: &report)
                }
            } else {
                report.fail(
                    .tokensExchanged,
                    milliseconds: WallClock.since(started),
                    "the token response breaks Google's account-linking rules: " + broken.joined(separator: "; "),
                    exitStatus: 2
                )
            }
            return
        case nil:
            report.record(.parametersChecked, .ok, milliseconds: nil)
            report.record(.codeObtained, .ok, milliseconds: times?.handled)
            report.fail(
                .resultDelivered,
                milliseconds: times?.delivered,
                "the result URL is not a valid App Flip result: " + report.violations.joined(separator: "; "),
                exitStatus: 2
            )
            return
        }
    }

    /// Steps 6 and 7: what Google does when the user unlinks — revoke at the partner's revocation endpoint —
    /// then proof that it worked: the refresh token gets `invalid_grant`, the access tokens no longer open
    /// the resource. Nothing here puts a token in the report: fingerprints only.
    static func unlink(_ unlink: Unlink, issued: [TokenResponse], exchanger: TokenEndpointClient, report: inout FlipReport) async {
        let started = WallClock.now()
        let revocationURL: String
        if let given = unlink.revocationURL {
            revocationURL = given
        } else {
            let metadataURL = TokenEndpointClient.metadataURL(forTokenURL: exchanger.tokenURL)
            do {
                guard let advertised = try await exchanger.authorizationServerMetadata()["revocation_endpoint"] else {
                    report.fail(
                        .tokensRevoked,
                        milliseconds: WallClock.since(started),
                        "\(metadataURL) names no revocation_endpoint; give --revoke-url",
                        exitStatus: 1
                    )
                    return
                }
                revocationURL = advertised
            } catch {
                report.fail(
                    .tokensRevoked,
                    milliseconds: WallClock.since(started),
                    "no revocation endpoint: \(metadataURL): \(error); give --revoke-url",
                    exitStatus: 1
                )
                return
            }
        }
        // Google holds the refresh token of a linked account; that is what it revokes.
        let refreshToken = issued.last?.refreshToken ?? issued.first?.refreshToken
        guard let token = refreshToken ?? issued.last?.accessToken else { return }
        let hint = refreshToken != nil ? "refresh_token" : "access_token"
        do {
            try await exchanger.revoke(token: token, tokenTypeHint: hint, at: revocationURL)
        } catch {
            report.fail(.tokensRevoked, milliseconds: WallClock.since(started), "\(revocationURL): \(error)", exitStatus: 1)
            return
        }
        report.record(
            .tokensRevoked,
            .ok,
            milliseconds: WallClock.since(started),
            "\(revocationURL) answered 200 to the \(hint) sha256:\(Fingerprint.of(token))"
        )

        let confirming = WallClock.now()
        var dead: [String] = []
        var alive: [String] = []
        if let refreshToken {
            do {
                _ = try await exchanger.refresh(refreshToken: refreshToken)
                alive.append("the revoked refresh token sha256:\(Fingerprint.of(refreshToken)) still refreshes")
            } catch .endpoint(status: 400, error: "invalid_grant"?, description: _) {
                dead.append("refresh token: invalid_grant")
            } catch {
                alive.append("refreshing with the revoked refresh token answered \(error), not HTTP 400 invalid_grant")
            }
        }
        if let resourceURL = unlink.resourceURL {
            for accessToken in Set(issued.map(\.accessToken)).sorted() {
                let fingerprint = "sha256:" + Fingerprint.of(accessToken)
                do {
                    let status = try await exchanger.resourceStatus(url: resourceURL, accessToken: accessToken)
                    if (200..<300).contains(status) {
                        alive.append("access token \(fingerprint) still opens \(resourceURL) (HTTP \(status))")
                    } else {
                        dead.append("access \(fingerprint): HTTP \(status)")
                    }
                } catch {
                    alive.append("\(resourceURL) could not be checked: \(error)")
                }
            }
        }
        if alive.isEmpty {
            report.record(
                .revocationConfirmed,
                .ok,
                milliseconds: WallClock.since(confirming),
                dead.isEmpty ? "nothing to check" : dead.joined(separator: ", ")
            )
            report.unlinked = true
        } else {
            report.fail(
                .revocationConfirmed,
                milliseconds: WallClock.since(confirming),
                "the revocation did not take: " + alive.joined(separator: "; "),
                exitStatus: 2
            )
        }
    }
}
