public import AppFlipCore

/// `partner.scope`: the flip link's `scope` reaches the partner app's code. The app's code is exchanged as
/// Google would, and the scopes its tokens carry are compared with what was asked, first the first scope
/// alone, then all of them: an app that drops the scope (the server then grants its default) or keeps only
/// part of the list is seen. A server may grant other scopes than asked (RFC 6749 §3.3), so a difference is
/// a failure only when the authorization endpoint's own code for the same scopes carries what was asked;
/// without `--authorize-url` it is a warning that says which two causes are possible.
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
        case serverPolicy(String)
        case unsure(String)
        case lost(String)
        case unseen(String)
        case couldNotRun(String)
    }

    func scopeFidelity(_ sources: PartnerScopeSources, _ google: Client) async throws(AuditUnreachable) -> AuditResult {
        let (app, control, scopes) = (sources.app, sources.control, sources.scopes)
        guard let first = scopes.first else { return AuditResult(.partnerScope, .skipped, "no --scope to ask for") }
        let requests = scopes.count > 1 ? [[first], scopes] : [[first]]
        var outcomes: [ScopeOutcome] = []
        var evidence: [String] = []
        for asked in requests {
            let (outcome, lines) = try await scopeOutcome(asked: asked, every: asked == scopes, app: app, control: control, google)
            outcomes.append(outcome)
            evidence += lines
        }
        func reasons(_ pick: (ScopeOutcome) -> String?) -> [String] { outcomes.compactMap(pick) }
        let lost = reasons { if case .lost(let why) = $0 { why } else { nil } }
        if !lost.isEmpty { return AuditResult(.partnerScope, .fail, lost.joined(separator: "; "), evidence: evidence) }
        let unsure = reasons { if case .unsure(let why) = $0 { why } else { nil } }
        if !unsure.isEmpty { return AuditResult(.partnerScope, .warning, unsure.joined(separator: "; "), evidence: evidence) }
        let kept = reasons {
            switch $0 {
            case .kept(let why), .serverPolicy(let why): why
            default: nil
            }
        }
        let couldNot = reasons { if case .couldNotRun(let why) = $0 { why } else { nil } }
        if !couldNot.isEmpty {
            return AuditResult(.partnerScope, .couldNotRun, "could not run: " + couldNot.joined(separator: "; "), evidence: evidence)
        }
        if !kept.isEmpty { return AuditResult(.partnerScope, .pass, kept.joined(separator: "; "), evidence: evidence) }
        let unseen = reasons { if case .unseen(let why) = $0 { why } else { nil } }
        return AuditResult(.partnerScope, .skipped, unseen.first ?? "nothing to judge", evidence: evidence)
    }

    /// `every`: `asked` is every scope, Google's own request, rather than a part of them.
    private func scopeOutcome(
        asked: [String],
        every: Bool,
        app: any ScopedCodeSource,
        control: (any ScopedCodeSource)?,
        _ google: Client
    ) async throws(AuditUnreachable) -> (ScopeOutcome, [String]) {
        let label = String(reflecting: asked.joined(separator: " "))
        let appGranted: [String]
        var evidence: [String] = []
        switch try await grantedScopes(asked: asked, from: app, google) {
        case .granted(let scopes, let line):
            appGranted = scopes
            evidence.append("the app's code for scope \(label): \(line)")
        case .noScope(let line):
            evidence.append("the app's code for scope \(label): \(line)")
            return (
                .unseen("the token response names no scope (RFC 6749 §5.1: then the scopes are those asked), so a lost scope cannot be seen"),
                evidence
            )
        case .failed(let why) where every:
            return (.couldNotRun("scope \(label): the app's code: \(why)"), evidence)
        case .failed(let why):
            // Google always asks for every scope: an app may refuse a part of them.
            return (.unseen("scope \(label), a part of the scopes, which Google never asks alone: the app's code: \(why)"), evidence)
        }
        let carried = String(reflecting: appGranted.joined(separator: " "))
        if Set(appGranted) == Set(asked) { return (.kept("asked \(label), the tokens carry \(carried)"), evidence) }
        guard let control else {
            return (
                .unsure(
                    "asked \(label), the tokens of the app's code carry \(carried): the app did not pass scope on, or the server grants \(carried) for \(label) (RFC 6749 §3.3); give --authorize-url to tell which"
                ), evidence
            )
        }
        switch try await grantedScopes(asked: asked, from: control, google) {
        case .granted(let scopes, let line):
            evidence.append("the authorization endpoint's own code for scope \(label): \(line)")
            if Set(scopes) == Set(appGranted) {
                return (
                    .serverPolicy("asked \(label), the server grants \(carried) for it, to the app's code as to its own (RFC 6749 §3.3)"), evidence
                )
            }
            let direct = String(reflecting: scopes.joined(separator: " "))
            return (
                .lost(
                    "asked \(label): the app's code carries \(carried), the authorization endpoint's own code for \(label) carries \(direct): the app does not pass the link's scope on as sent"
                ), evidence
            )
        case .noScope(let line), .failed(let line):
            evidence.append("the authorization endpoint's own code for scope \(label): \(line)")
            return (
                .unsure(
                    "asked \(label), the tokens of the app's code carry \(carried): the app did not pass scope on, or the server grants \(carried) for \(label) (RFC 6749 §3.3); the authorization endpoint's own code did not tell which"
                ), evidence
            )
        }
    }

    private enum Granted {
        case granted([String], String)
        case noScope(String)
        case failed(String)
    }

    /// The scopes the tokens of a fresh code for `asked` carry, by the token response's `scope`.
    private func grantedScopes(asked: [String], from source: any ScopedCodeSource, _ google: Client) async throws(AuditUnreachable) -> Granted {
        let code: String
        do {
            code = try await source.freshCode(redirectURI: redirectURI, scopes: asked)
        } catch {
            // A source that declines to give a code for these scopes leaves this check unjudged, not the audit.
            return .failed("no code: \(error)")
        }
        let answer = try await exchange(code, google)
        let line = "POST \(target.url) grant_type=authorization_code, \(Self.redacted("code", code)): \(answer)"
        guard answer.issuedTokens else { return .failed("the code did not exchange: \(answer.summary)") }
        guard let scope = answer.string("scope") else { return .noScope(line + " (no scope member)") }
        return .granted(scope.split(separator: " ", omittingEmptySubsequences: true).map(String.init), line + " scope=\(String(reflecting: scope))")
    }
}
