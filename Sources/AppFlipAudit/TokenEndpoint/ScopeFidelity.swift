import AppFlipCore

/// `partner.scope` and `android.scope`: the scopes Google asks for reach the partner app's code. The app's code
/// is exchanged as Google would, and the scopes its tokens carry are compared with what was asked: for
/// `partner.scope` the first scope alone, then all of them; for `android.scope` each scope alone, then all of
/// them. An app that drops the scopes (the server then grants its default) or keeps only part of the list is
/// seen. A server may grant other scopes than asked (RFC 6749 §3.3), so a difference is a failure only when a
/// control shows the app is the cause: the authorization endpoint's own code for the same scopes carrying what
/// was asked, or, on Android, the same scopes sent through the same app as a String (what `getStringExtra`
/// reads) reaching the tokens where the String[] Google sends does not, while another list sent so gets others. Without either it is a warning that says
/// which two causes are possible.
extension TokenEndpointAudit {
    /// What `partner.scope` needs: the app's codes, the authorization endpoint's to hold them against (when
    /// the audit has that target and it yields codes), and the scopes Google asks for.
    public struct PartnerScopeSources: Sendable {
        var app: any ScopedCodeSource
        var control: (any ScopedCodeSource)?
        var scopes: [String]

        /// The sources of `partner.scope`.
        public init(app: any ScopedCodeSource, control: (any ScopedCodeSource)?, scopes: [String]) {
            self.app = app
            self.control = control
            self.scopes = scopes
        }
    }

    /// What one scope request came to.
    private enum ScopeOutcome {
        case kept(String)
        case unsure(String)
        case lost(String)
        /// Nothing to judge: the need that fell short, and where it stands.
        case unjudged(AuditNeed, NeedState)
    }

    /// One scope check's terms: the check, where its codes come from, what it asks and how it says so.
    struct ScopeProbe: Sendable {
        /// Codes for a list of scopes, exchanged with `redirectURI` (nil: the audit's).
        struct Source: Sendable {
            var codes: any ScopedCodeSource
            var redirectURI: String?
        }

        var check: CheckSpec
        /// The partner app's codes.
        var app: Source
        /// The authorization endpoint's own codes, which tell what the server grants for the scopes asked.
        var control: Source?
        /// Codes through the same app that can show a loss, never a keeping (Android's `SCOPE` sent as a String):
        /// carrying exactly what was asked where the app's codes do not, and other scopes for another list, they
        /// show the app is the cause.
        var witness: Source?
        /// The scope lists asked, in order; the last is every scope, Google's own request.
        var requests: [[String]]
        /// The need the app's code for every scope stands for when it gets none (`app-code`, `android-code`).
        var codeNeed: AuditNeed
        /// The rule a code of the app that gets no tokens breaks, and the need it leaves unmet for the check.
        var exchangeRule: CheckSpec
        var tokensNeed: AuditNeed
        /// The parameter's name, and how a list of scopes is written in it.
        var parameter: String
        var label: @Sendable ([String]) -> String
        /// Why the app is the cause, when the control shows it.
        var notPassedOn: String
        /// Why the app is the cause, when the witness shows it.
        var witnessShows: String

        /// `partner.scope`: the flip link's `scope`, a space-separated list.
        static func partner(_ sources: PartnerScopeSources) -> ScopeProbe? {
            guard let first = sources.scopes.first else { return nil }
            return ScopeProbe(
                check: .partnerScope,
                app: Source(codes: sources.app),
                control: sources.control.map { Source(codes: $0) },
                witness: nil,
                requests: sources.scopes.count > 1 ? [[first], sources.scopes] : [[first]],
                codeNeed: .appCode,
                exchangeRule: .tokenExchange,
                tokensNeed: .tokens,
                parameter: "scope",
                label: { String(reflecting: $0.joined(separator: " ")) },
                notPassedOn: "the app does not pass the link's scope on as sent",
                witnessShows: ""
            )
        }
    }

    func scopeFidelity(_ sources: PartnerScopeSources, _ google: Client) async throws(AuditUnreachable) {
        guard let probe = ScopeProbe.partner(sources) else { return }
        try await scopeFidelity(probe, google)
    }

    func scopeFidelity(_ probe: ScopeProbe, _ google: Client) async throws(AuditUnreachable) {
        let check = probe.check
        let ledger = context.ledger
        guard let every = probe.requests.last else { return }
        ledger.set(.tokenScope, .met, for: check)
        var findings: [Finding] = []
        var unjudged: [(AuditNeed, NeedState)] = []
        for asked in probe.requests {
            let (outcome, lines) = try await scopeOutcome(asked: asked, every: asked == every, probe, google)
            ledger.record(check, .note(lines))
            switch outcome {
            case .kept(let why): findings.append(.held(why))
            case .unsure(let why): findings.append(.warn(why))
            case .lost(let why): findings.append(.fail(why))
            case .unjudged(let need, let state): unjudged.append((need, state))
            }
        }
        // A wrong scope fails or warns whatever else happened; a shortfall of Google's own request (every
        // scope) leaves the check unjudged, naming the rule; a part of the scopes the app refuses, or tokens that
        // name no scope, leave only their request unjudged.
        if findings.contains(where: { $0.kind != .held }) || (!findings.isEmpty && !unjudged.contains { $0.0 != .tokenScope }) {
            for finding in findings { ledger.record(check, finding) }
        } else if let (need, state) = unjudged.first(where: { $0.0 != .tokenScope }) ?? unjudged.first {
            ledger.set(need, state, for: check)
        }
    }

    /// `every`: `asked` is every scope, Google's own request, rather than a part of them.
    private func scopeOutcome(
        asked: [String],
        every: Bool,
        _ probe: ScopeProbe,
        _ google: Client
    ) async throws(AuditUnreachable) -> (ScopeOutcome, [String]) {
        let label = probe.label(asked)
        let asking = "\(probe.parameter) \(label)"
        let appGranted: [String]
        var evidence: [String] = []
        switch try await grantedScopes(asked: asked, from: probe.app, probe, google) {
        case .granted(let scopes, let line):
            appGranted = scopes
            evidence.append("the app's code for \(asking): \(line)")
        case .noScope(let line):
            evidence.append("the app's code for \(asking): \(line)")
            return (
                .unjudged(
                    .tokenScope,
                    .nothingToJudge(
                        "the token response names no scope (RFC 6749 §5.1: then the scopes are those asked), so a lost \(probe.parameter) cannot be seen"
                    )
                ),
                evidence
            )
        case .noCode(let state) where every:
            return (.unjudged(probe.codeNeed, state), evidence)
        case .noCode(let state):
            // Google always asks for every scope: an app may refuse a part of them.
            let why = if case .brokeRule(_, let text) = state { text } else { "no code" }
            return (
                .unjudged(
                    .tokenScope,
                    .nothingToJudge("\(asking), a part of the scopes, which Google never asks alone: the app's code: \(why)")
                ), evidence
            )
        case .notExchanged(let answer, let line):
            evidence.append("the app's code for \(asking): \(line)")
            let why = "the app's code for \(asking) got \(answer.summary), not tokens"
            context.ledger.record(probe.exchangeRule, .fail(why, evidence: [line]))
            return (.unjudged(probe.tokensNeed, .brokeRule(probe.exchangeRule, why)), evidence)
        }
        let carried = String(reflecting: appGranted.joined(separator: " "))
        if Set(appGranted) == Set(asked) { return (.kept("asked \(label), the tokens carry \(carried)"), evidence) }
        if let witness = probe.witness, let shown = try await witnessShowsLoss(asked: asked, witness, probe, google, &evidence) {
            return (.lost("asked \(label), the tokens of the app's code carry \(carried); \(shown): \(probe.witnessShows)"), evidence)
        }
        guard let control = probe.control else {
            return (
                .unsure(
                    "asked \(label), the tokens of the app's code carry \(carried): the app did not pass \(probe.parameter) on, or the server grants \(carried) for \(label) (RFC 6749 §3.3); give --authorize-url to tell which"
                ), evidence
            )
        }
        switch try await grantedScopes(asked: asked, from: control, probe, google) {
        case .granted(let scopes, let line):
            evidence.append("the authorization endpoint's own code for \(asking): \(line)")
            if Set(scopes) == Set(appGranted) {
                return (.kept("asked \(label), the server grants \(carried) for it, to the app's code as to its own (RFC 6749 §3.3)"), evidence)
            }
            let direct = String(reflecting: scopes.joined(separator: " "))
            return (
                .lost(
                    "asked \(label): the app's code carries \(carried), the authorization endpoint's own code for \(label) carries \(direct): \(probe.notPassedOn)"
                ), evidence
            )
        case .noScope(let line), .notExchanged(_, let line):
            evidence.append("the authorization endpoint's own code for \(asking): \(line)")
            return (.unsure(unsure(label, carried, probe)), evidence)
        case .noCode:
            evidence.append("the authorization endpoint's own code for \(asking): none")
            return (.unsure(unsure(label, carried, probe)), evidence)
        }
    }

    /// Whether the witness shows the app is the cause of a difference: its code for `asked` carries exactly
    /// that, and its code for another list of scopes (the probe's next request, or none) carries something else,
    /// so that its scopes follow what is asked rather than a default that happens to equal it. Nil when it does
    /// not; else what it showed.
    private func witnessShowsLoss(
        asked: [String],
        _ witness: ScopeProbe.Source,
        _ probe: ScopeProbe,
        _ google: Client,
        _ evidence: inout [String]
    ) async throws(AuditUnreachable) -> String? {
        guard case .granted(let scopes, let line) = try await grantedScopes(asked: asked, from: witness, probe, google) else { return nil }
        evidence.append("the same \(probe.parameter) through the app as a String: \(line)")
        guard Set(scopes) == Set(asked) else { return nil }
        let other = probe.requests.first { Set($0) != Set(asked) } ?? []
        guard case .granted(let otherScopes, let otherLine) = try await grantedScopes(asked: other, from: witness, probe, google) else { return nil }
        evidence.append("\(probe.parameter) \(probe.label(other)) through the app as a String: \(otherLine)")
        guard Set(otherScopes) != Set(scopes) else { return nil }
        let otherCarried = String(reflecting: otherScopes.joined(separator: " "))
        return
            "the same scopes sent as a String get a code whose tokens carry them, and \(probe.label(other)) as a String one whose tokens carry \(otherCarried)"
    }

    private func unsure(_ label: String, _ carried: String, _ probe: ScopeProbe) -> String {
        "asked \(label), the tokens of the app's code carry \(carried): the app did not pass \(probe.parameter) on, or the server grants \(carried) for \(label) (RFC 6749 §3.3); the authorization endpoint's own code did not tell which"
    }

    private enum Granted {
        case granted([String], String)
        case noScope(String)
        case noCode(NeedState)
        case notExchanged(TokenAnswer, String)
    }

    /// The scopes the tokens of a fresh code of `source` for `asked` carry, by the token response's `scope`.
    private func grantedScopes(
        asked: [String],
        from source: ScopeProbe.Source,
        _ probe: ScopeProbe,
        _ google: Client
    ) async throws(AuditUnreachable) -> Granted {
        let code: String
        do {
            code = try await source.codes.freshCode(redirectURI: redirectURI, scopes: asked)
        } catch let shortfall as CodeShortfall {
            return .noCode(shortfall.state)
        } catch let error as AuditUnreachable {
            throw error
        } catch {
            return .noCode(.nothingToJudge("no code: \(error)"))
        }
        let exchangedWith = source.redirectURI ?? redirectURI.string
        let answer = try await post(
            target.url,
            [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", exchangedWith)],
            google,
            grant: .authorizationCode,
            for: "\(probe.check.id): a code for \(probe.parameter) \(probe.label(asked))"
        )
        let line = "POST \(target.url) grant_type=authorization_code, \(Self.redacted("code", code)): \(answer)"
        guard answer.issuedTokens else { return .notExchanged(answer, line) }
        guard let scope = answer.string("scope") else { return .noScope(line + " (no scope member)") }
        return .granted(scope.split(separator: " ", omittingEmptySubsequences: true).map(String.init), line + " scope=\(String(reflecting: scope))")
    }
}
