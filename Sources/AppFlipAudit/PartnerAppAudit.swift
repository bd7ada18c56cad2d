public import AppFlipClient
public import AppFlipCore
public import AppFlipGoogle
import AppFlipProtocol
import NIOCore

/// The partner-app checks, through appflipd: flip links sent as the Google app (universal-links-only), and
/// what the app opened judged as Google's app would. Flips run one at a time, so every URL the Google app
/// receives belongs to the flip just sent. It also supplies codes to the token-endpoint checks.
public struct PartnerAppAudit: ScopedCodeSource {
    /// The app and what to send it.
    public var target: PartnerAppTarget
    /// The redirect URI of the checks that need one (the state battery, the lookalikes' original).
    public var redirectURI: AppFlipRedirectURI
    /// Why the authorization endpoint gives no code, when the audit knows (`authorize.sign-in` or
    /// `authorize.code` did not pass): part of `partner.code`'s cause.
    public var authorizationCause: String?
    /// The authorization endpoint's unmet precondition is a rule it broke (`authorize.code`: PKCE required),
    /// already reported: `partner.code` is then skipped, not a run that could not happen.
    public var authorizationBrokeARule = false
    private let connection: AppFlipConnection
    private let google: GoogleApp

    /// An audit on `connection`, with `google` registered for every Google app's redirect path
    /// (`GoogleApp.register(on:bundleID: nil)`), so that whatever the app opens there is seen.
    public init(target: PartnerAppTarget, redirectURI: AppFlipRedirectURI, connection: AppFlipConnection, google: GoogleApp) {
        self.target = target
        self.redirectURI = redirectURI
        self.connection = connection
        self.google = google
    }

    /// Problems seen across flips for the checks that judge every result (shape, error values).
    private struct Observations {
        var results = 0
        var shapeProblems: [String] = []
        var errors = 0
        var errorValueProblems: [String] = []
    }

    /// Runs every partner-app check. Throws only when appflipd cannot be reached.
    public func run() async throws(AuditUnreachable) -> [AuditResult] {
        var observations = Observations()
        var results: [AuditResult] = []

        let routeState = "appflip-audit-route"
        let routeFlip = try await flip(fields(state: routeState, redirectURI: redirectURI.string))
        guard routeFlip.app != nil else {
            results.append(
                AuditResult(.partnerRoute, .fail, "\(routeFlip.answerSummary): the flip link reaches no app", evidence: ["sent \(routeFlip.link)"])
            )
            return results
                + AuditCheck.allCases.filter { $0.target == .partnerApp && $0 != .partnerRoute && $0 != .partnerScope }.map {
                    AuditResult($0, .skipped, "the flip link reaches no app (partner.route)")
                }
        }
        results.append(
            AuditResult(
                .partnerRoute,
                .pass,
                "routed to \(routeFlip.app ?? "?") by \(routeFlip.rule ?? "?")",
                evidence: ["sent \(routeFlip.link)", "answer: \(routeFlip.answerSummary), opened \(routeFlip.openedSummary)"]
            )
        )
        let routeOutcome = judge(routeFlip, redirectURI: redirectURI.string, state: routeState, &observations)
        if case .code? = routeOutcome {
            results.append(AuditResult(.partnerCode, .pass, "a valid flip got a code", evidence: ["answer: \(routeFlip.answerSummary)"]))
            results.append(try await redirectURIs(&observations))
            results.append(try await states(success: true, &observations))
        } else {
            let result = routeFlip.resultURL.map { "the result \(LocationText.shown($0))" } ?? "no result"
            var cause = "\(routeFlip.answerSummary), \(result)"
            if let authorizationCause { cause += "; the authorization endpoint: \(authorizationCause)" }
            results.append(
                AuditResult(
                    .partnerCode,
                    authorizationBrokeARule ? .skipped : .couldNotRun,
                    (authorizationBrokeARule ? "needs the authorization endpoint's code (authorize.code failed)" : "could not run")
                        + ": a valid flip got no code: \(cause)",
                    evidence: ["sent \(routeFlip.link)", "answer: \(routeFlip.answerSummary), opened \(routeFlip.openedSummary)"]
                )
            )
            results += [
                AuditResult(.partnerRedirectURIs, .skipped, "needs partner.code"), AuditResult(.partnerStateSuccess, .skipped, "needs partner.code"),
            ]
        }
        results.append(try await states(success: false, &observations))
        results.append(try await wrongClientID())
        results.append(try await lookalikes())
        results.append(try await invalidRequests(&observations))

        results.append(
            observations.shapeProblems.isEmpty
                ? AuditResult(
                    .partnerResultShape,
                    .pass,
                    "\(observations.results) results, each one URL on the exact redirect_uri, universal-links-only"
                )
                : AuditResult(
                    .partnerResultShape,
                    .fail,
                    "\(observations.shapeProblems.count) problem(s) in \(observations.results) results: \(observations.shapeProblems[0])",
                    evidence: observations.shapeProblems
                )
        )
        if observations.errors == 0 {
            results.append(AuditResult(.partnerErrorValues, .skipped, "the app sent no error result"))
        } else {
            results.append(
                observations.errorValueProblems.isEmpty
                    ? AuditResult(.partnerErrorValues, .pass, "\(observations.errors) error results, each with an App Flip error value")
                    : AuditResult(
                        .partnerErrorValues,
                        .fail,
                        observations.errorValueProblems[0],
                        evidence: observations.errorValueProblems
                    )
            )
        }
        return results
    }

    /// A fresh code for the token-endpoint checks: one valid flip to `redirectURI`.
    public func freshCode(redirectURI: AppFlipRedirectURI) async throws -> String {
        try await freshCode(redirectURI: redirectURI, scopes: target.scopes)
    }

    /// A fresh code from one valid flip to `redirectURI` whose link asks for `scopes`.
    public func freshCode(redirectURI: AppFlipRedirectURI, scopes: [String]) async throws -> String {
        let state = "appflip-audit-code-" + String(UInt64.random(in: .min ... .max), radix: 36)
        let flip = try await flip(fields(state: state, redirectURI: redirectURI.string, scopes: scopes))
        guard let url = flip.delivered.first,
            case .code(let code)? = FlipResultChecker(redirectURI: redirectURI.string, state: state).check(url).outcome
        else {
            throw AuditUnreachable("the partner app gave no code to a valid flip link (\(flip.answerSummary), opened \(flip.openedSummary))")
        }
        return code
    }

    // MARK: The checks

    private func redirectURIs(_ observations: inout Observations) async throws(AuditUnreachable) -> AuditResult {
        var failures: [String] = []
        for (index, uri) in AppFlipRedirectURI.all.enumerated() {
            let state = "appflip-audit-uri-\(index)"
            let flip = try await flip(fields(state: state, redirectURI: uri.string))
            if case .code? = judge(flip, redirectURI: uri.string, state: state, &observations) { continue }
            failures.append("\(uri): \(flip.answerSummary), opened \(flip.openedSummary)")
        }
        guard failures.isEmpty else {
            return AuditResult(
                .partnerRedirectURIs,
                .fail,
                "\(failures.count) of 12 got no code: " + failures.joined(separator: "; "),
                evidence: failures
            )
        }
        return AuditResult(.partnerRedirectURIs, .pass, "each of the 12 got a code on its own redirect_uri")
    }

    /// The hostile-state battery, with a valid link (`success`) or with `scope` left out (an error path).
    private func states(success: Bool, _ observations: inout Observations) async throws(AuditUnreachable) -> AuditResult {
        let check: AuditCheck = success ? .partnerStateSuccess : .partnerStateError
        var failures: [String] = []
        var declines: [String] = []
        var codes = 0
        for (label, state) in HostileStates.all {
            var fields = fields(state: state, redirectURI: redirectURI.string)
            if !success { fields.removeAll { $0.name == "scope" } }
            let flip = try await flip(fields)
            let outcome = judge(flip, redirectURI: redirectURI.string, state: state, &observations)
            guard let url = flip.resultURL else {
                let line = "\(label): \(flip.answerSummary), opened \(flip.openedSummary)"
                if success { failures.append(line) } else { declines.append(line) }
                continue
            }
            let verdict = FlipResultChecker(redirectURI: redirectURI.string, state: state).check(url)
            let problem =
                verdict.violations.first {
                    if case .stateMismatch = $0 { return true }
                    return $0 == .stateMissing
                }?.description ?? (verdict.deviations.contains(.stateMissingWithError) ? "state is missing with the error" : nil)
            if let problem {
                failures.append("\(label): \(problem) (sent \(Self.quoted(state)), came back \(Self.stateField(of: url) ?? "absent"))")
            }
            switch outcome {
            case .error(let error, _)? where success: failures.append("\(label): error=\(error.rawValue) instead of a code")
            case .code? where !success: codes += 1
            default: break
            }
        }
        let count = HostileStates.all.count
        if !failures.isEmpty {
            return AuditResult(check, .fail, "\(failures.count) of \(count) states: " + failures.joined(separator: "; "), evidence: failures)
        }
        if !declines.isEmpty {
            return AuditResult(
                check,
                .warning,
                "\(declines.count) of \(count) links without scope were declined, so their state could not come back: \(declines[0])",
                evidence: declines
            )
        }
        if codes > 0 {
            return AuditResult(
                check,
                .warning,
                "the app answered \(codes) of \(count) links without scope with a code: the states came back, but not on an error path"
            )
        }
        return AuditResult(check, .pass, "\(count) states came back byte for byte" + (success ? " with a code" : " with an error"))
    }

    private func wrongClientID() async throws(AuditUnreachable) -> AuditResult {
        var evidence: [String] = []
        var failures: [String] = []
        for variant in WrongClientID.all(of: target.clientID) {
            let valid = fields(state: "appflip-audit-client", redirectURI: redirectURI.string)
            let fields = valid.compactMap { field in
                field.name == "client_id" ? variant.value.map { ("client_id", $0) } : field
            }
            let flip = try await flip(fields)
            let sent = variant.value.map { "client_id \(Self.quoted($0))" } ?? "no client_id"
            evidence.append("\(variant.label), \(sent): \(flip.answerSummary), opened \(flip.openedSummary)")
            if !(flip.declined && flip.opened.isEmpty) {
                failures.append("\(variant.label) (\(sent)): \(flip.declined ? "declined" : "not declined"), opened \(flip.openedSummary)")
            }
        }
        guard failures.isEmpty else {
            return AuditResult(
                .partnerWrongClientID,
                .fail,
                "\(failures.count) of \(evidence.count) wrong client_ids not refused: " + failures.joined(separator: "; "),
                evidence: evidence
            )
        }
        return AuditResult(.partnerWrongClientID, .pass, "\(evidence.count) wrong client_ids declined, nothing opened", evidence: evidence)
    }

    private func lookalikes() async throws(AuditUnreachable) -> AuditResult {
        var failures: [String] = []
        var evidence: [String] = []
        for lookalike in LookalikeRedirect.all(of: redirectURI) {
            let flip = try await flip(fields(state: "appflip-audit-lookalike", redirectURI: lookalike.uri))
            evidence.append("\(lookalike.label) \(lookalike.uri): \(flip.answerSummary), opened \(flip.openedSummary)")
            if !(flip.declined && flip.opened.isEmpty) {
                failures.append("\(lookalike.label) \(lookalike.uri): \(flip.answerSummary), opened \(flip.openedSummary)")
            }
        }
        for (label, values) in LookalikeRedirect.repeated(with: redirectURI) {
            let fields = fields(state: "appflip-audit-lookalike", redirectURI: values[0]) + [("redirect_uri", values[1])]
            let flip = try await flip(fields)
            evidence.append("\(label): \(flip.answerSummary), opened \(flip.openedSummary)")
            // Declining is right; so is a result on the App Flip URI itself, which is where Google's link points.
            let elsewhere = flip.opened.filter { String($0.url.prefix { $0 != "?" }) != redirectURI.string }
            if !elsewhere.isEmpty {
                failures.append("\(label): \(flip.answerSummary), opened \(flip.openedSummary)")
            }
        }
        guard failures.isEmpty else {
            return AuditResult(
                .partnerLookalikeRedirect,
                .fail,
                "\(failures.count) of \(evidence.count) lookalikes not refused: " + failures.joined(separator: "; "),
                evidence: evidence
            )
        }
        return AuditResult(.partnerLookalikeRedirect, .pass, "\(evidence.count) lookalikes declined, nothing opened", evidence: evidence)
    }

    private func invalidRequests(_ observations: inout Observations) async throws(AuditUnreachable) -> AuditResult {
        let state = "appflip-audit-invalid"
        let valid = fields(state: state, redirectURI: redirectURI.string)
        let scope = valid.first { $0.name == "scope" }!.value
        func replacing(_ name: String, with values: [String]) -> [(name: String, value: String)] {
            valid.filter { $0.name != name } + values.map { (name, $0) }
        }
        let cases: [(String, [(name: String, value: String)])] = [
            ("state missing", replacing("state", with: [])),
            ("state empty", replacing("state", with: [""])),
            ("state twice", replacing("state", with: [state, state])),
            ("scope missing", replacing("scope", with: [])),
            ("scope empty", replacing("scope", with: [""])),
            ("scope twice", replacing("scope", with: [scope, scope])),
        ]
        var failures: [String] = []
        var declines: [String] = []
        var evidence: [String] = []
        for (label, fields) in cases {
            let flip = try await flip(fields)
            let sentState = fields.filter { $0.name == "state" }.count == 1 ? fields.first { $0.name == "state" }!.value : nil
            let outcome = judge(flip, redirectURI: redirectURI.string, state: sentState ?? "", &observations)
            evidence.append("\(label): \(flip.answerSummary), opened \(flip.openedSummary)")
            switch outcome {
            case .error(.invalidRequest, _)?:
                continue
            case .error(let error, _)?:
                failures.append("\(label): error=\(error.rawValue), not invalid_request")
            case .code? where label == "scope missing" || label == "scope empty":
                // RFC 6749 §3.3 lets a server apply a default scope; §3.1 reads an empty one as missing.
                declines.append("\(label): a code (a default scope, which RFC 6749 §3.3 allows)")
            case .code?:
                failures.append("\(label): a code, not invalid_request")
            case nil where flip.declined && flip.opened.isEmpty:
                declines.append("\(label): declined (the seed's sample does this)")
            case nil:
                failures.append("\(label): \(flip.answerSummary), opened \(flip.openedSummary)")
            }
        }
        if !failures.isEmpty {
            return AuditResult(
                .partnerInvalidRequest,
                .fail,
                "\(failures.count) of \(cases.count): " + failures.joined(separator: "; "),
                evidence: evidence
            )
        }
        if !declines.isEmpty {
            return AuditResult(
                .partnerInvalidRequest,
                .warning,
                "\(declines.count) of \(cases.count) without invalid_request: " + declines.joined(separator: "; "),
                evidence: evidence
            )
        }
        return AuditResult(.partnerInvalidRequest, .pass, "each of \(cases.count) got invalid_request on the redirect_uri", evidence: evidence)
    }

    // MARK: Flips and results

    /// The four App Flip parameters of a valid link, in Google's order.
    private func fields(state: String, redirectURI: String, scopes: [String]? = nil) -> [(name: String, value: String)] {
        [
            ("client_id", target.clientID), ("scope", (scopes ?? target.scopes).joined(separator: " ")), ("state", state),
            ("redirect_uri", redirectURI),
        ]
    }

    /// Judges a flip that should have produced a result, noting shape and error-value problems; returns the
    /// result's outcome (nil when there is none).
    private func judge(
        _ flip: PartnerFlip,
        redirectURI: String,
        state: String,
        _ observations: inout Observations
    ) -> FlipResultVerdict.Outcome? {
        guard let url = flip.resultURL else { return nil }
        observations.results += 1
        let context = "after \(flip.link)"
        if flip.opened.count > 1 { observations.shapeProblems.append("opened \(flip.opened.count) URLs: \(flip.openedSummary) (\(context))") }
        if let first = flip.opened.first, !first.universalLinksOnly {
            observations.shapeProblems.append("opened \(first.url) without universal-links-only (\(context))")
        }
        if let first = flip.opened.first {
            let base = URLDifference.base(of: first.url)
            if base != redirectURI {
                observations.shapeProblems.append(
                    "opened \(first.url), not the redirect_uri \(redirectURI): \(URLDifference.describe(base, expected: redirectURI)) (\(context))"
                )
            } else if first.status != .delivered {
                observations.shapeProblems.append(
                    "the result \(first.url) was \(first.status.rawValue), not delivered to the Google app (\(context))"
                )
            }
        }
        let verdict = FlipResultChecker(redirectURI: redirectURI, state: state).check(url)
        for violation in verdict.violations {
            switch violation {
            case .stateMismatch, .stateMissing, .notTheRedirectURI: continue
            case .unknownError(let error): observations.errorValueProblems.append("error=\(error) is not an App Flip error value (\(context))")
            default: observations.shapeProblems.append("\(violation) (\(context))")
            }
        }
        if case .error? = verdict.outcome { observations.errors += 1 }
        if verdict.violations.contains(where: { if case .unknownError = $0 { true } else { false } }) { observations.errors += 1 }
        if verdict.deviations.contains(.errorDescriptionCharacters) {
            observations.errorValueProblems.append("error_description is not encoded as RFC 6749 §4.1.2.1 requires (\(context))")
        }
        return verdict.outcome
    }

    /// Sends one flip link and collects what came back.
    private func flip(_ fields: [(name: String, value: String)]) async throws(AuditUnreachable) -> PartnerFlip {
        let partner = target.link.string
        let link = partner + (target.link.query == nil ? "?" : "&") + FormEncoding.encode(fields)
        let request = OpenRequest(
            activity: Activity(activityType: browsingWebActivityType, webpageURL: link),
            options: OpenOptions(universalLinksOnly: true)
        )
        let reply: Reply
        do {
            reply = try await withTimeout(target.timeout) { try await connection.send(.open(request)).get() }
        } catch {
            throw AuditUnreachable("appflipd gave no reply to a flip link within \(target.timeout): \(error)")
        }
        let delivered = google.takeAll()
        switch reply.outcome {
        case .success(.open(let result)):
            return PartnerFlip(link: link, app: result.app, rule: result.rule, refusal: nil, opened: result.opened, delivered: delivered)
        case .success(let other):
            throw AuditUnreachable("appflipd answered an open with \(other.op.rawValue)")
        case .failure(let error):
            return PartnerFlip(link: link, app: error.app, rule: error.rule, refusal: error, opened: error.opened ?? [], delivered: delivered)
        }
    }

    /// The raw `state` field of a result URL, as sent (still encoded).
    private static func stateField(of url: String) -> String? {
        guard let query = url.split(separator: "?", maxSplits: 1).dropFirst().first else { return nil }
        return query.split(separator: "&").first { $0.hasPrefix("state=") }.map { String($0.dropFirst(6)) }
    }

    private static func quoted(_ text: String) -> String { String(reflecting: text.count > 40 ? String(text.prefix(40)) + "…" : text) }
}
