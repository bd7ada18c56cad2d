import AppFlipCore

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
        case unsure(String)
        case lost(String)
        /// Nothing to judge: the need that fell short, and where it stands.
        case unjudged(AuditNeed, NeedState)
    }

    func scopeFidelity(_ sources: PartnerScopeSources, _ google: Client) async throws(AuditUnreachable) {
        let check = CheckSpec.partnerScope
        let ledger = context.ledger
        guard let first = sources.scopes.first else { return }
        ledger.set(.tokenScope, .met, for: check)
        let requests = sources.scopes.count > 1 ? [[first], sources.scopes] : [[first]]
        var findings: [Finding] = []
        var unjudged: [(AuditNeed, NeedState)] = []
        for asked in requests {
            let (outcome, lines) = try await scopeOutcome(asked: asked, every: asked == sources.scopes, sources, google)
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
        _ sources: PartnerScopeSources,
        _ google: Client
    ) async throws(AuditUnreachable) -> (ScopeOutcome, [String]) {
        let label = String(reflecting: asked.joined(separator: " "))
        let appGranted: [String]
        var evidence: [String] = []
        switch try await grantedScopes(asked: asked, from: sources.app, google) {
        case .granted(let scopes, let line):
            appGranted = scopes
            evidence.append("the app's code for scope \(label): \(line)")
        case .noScope(let line):
            evidence.append("the app's code for scope \(label): \(line)")
            return (
                .unjudged(
                    .tokenScope,
                    .nothingToJudge(
                        "the token response names no scope (RFC 6749 §5.1: then the scopes are those asked), so a lost scope cannot be seen"
                    )
                ),
                evidence
            )
        case .noCode(let state) where every:
            return (.unjudged(.appCode, state), evidence)
        case .noCode(let state):
            // Google always asks for every scope: an app may refuse a part of them.
            let why = if case .brokeRule(_, let text) = state { text } else { "no code" }
            return (
                .unjudged(
                    .tokenScope,
                    .nothingToJudge("scope \(label), a part of the scopes, which Google never asks alone: the app's code: \(why)")
                ), evidence
            )
        case .notExchanged(let answer, let line):
            evidence.append("the app's code for scope \(label): \(line)")
            context.ledger.record(.tokenExchange, .fail("the app's code for scope \(label) got \(answer.summary), not tokens", evidence: [line]))
            return (.unjudged(.tokens, .brokeRule(.tokenExchange, "the app's code for scope \(label) got \(answer.summary), not tokens")), evidence)
        }
        let carried = String(reflecting: appGranted.joined(separator: " "))
        if Set(appGranted) == Set(asked) { return (.kept("asked \(label), the tokens carry \(carried)"), evidence) }
        guard let control = sources.control else {
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
                return (.kept("asked \(label), the server grants \(carried) for it, to the app's code as to its own (RFC 6749 §3.3)"), evidence)
            }
            let direct = String(reflecting: scopes.joined(separator: " "))
            return (
                .lost(
                    "asked \(label): the app's code carries \(carried), the authorization endpoint's own code for \(label) carries \(direct): the app does not pass the link's scope on as sent"
                ), evidence
            )
        case .noScope(let line), .notExchanged(_, let line):
            evidence.append("the authorization endpoint's own code for scope \(label): \(line)")
            return (.unsure(unsure(label, carried)), evidence)
        case .noCode:
            evidence.append("the authorization endpoint's own code for scope \(label): none")
            return (.unsure(unsure(label, carried)), evidence)
        }
    }

    private func unsure(_ label: String, _ carried: String) -> String {
        "asked \(label), the tokens of the app's code carry \(carried): the app did not pass scope on, or the server grants \(carried) for \(label) (RFC 6749 §3.3); the authorization endpoint's own code did not tell which"
    }

    private enum Granted {
        case granted([String], String)
        case noScope(String)
        case noCode(NeedState)
        case notExchanged(TokenAnswer, String)
    }

    /// The scopes the tokens of a fresh code for `asked` carry, by the token response's `scope`.
    private func grantedScopes(asked: [String], from source: any ScopedCodeSource, _ google: Client) async throws(AuditUnreachable) -> Granted {
        let code: String
        do {
            code = try await source.freshCode(redirectURI: redirectURI, scopes: asked)
        } catch let shortfall as CodeShortfall {
            return .noCode(shortfall.state)
        } catch let error as AuditUnreachable {
            throw error
        } catch {
            return .noCode(.nothingToJudge("no code: \(error)"))
        }
        let answer = try await exchange(code, google, for: "partner.scope: a code for scope \(String(reflecting: asked.joined(separator: " ")))")
        let line = "POST \(target.url) grant_type=authorization_code, \(Self.redacted("code", code)): \(answer)"
        guard answer.issuedTokens else { return .notExchanged(answer, line) }
        guard let scope = answer.string("scope") else { return .noScope(line + " (no scope member)") }
        return .granted(scope.split(separator: " ", omittingEmptySubsequences: true).map(String.init), line + " scope=\(String(reflecting: scope))")
    }
}
