import AppFlipCore
import AppFlipGoogle

extension AndroidAppAudit {
    /// `android.token-exchange` and `android.scope`: the app's codes exchanged as Google's server does, with
    /// `REDIRECT_URI` and the client authenticated as `--client-auth` says, through the token-endpoint checks'
    /// own requests: each exchange is recorded, and the judges hold its answer to the `token.*` rules.
    func exchanges(code: String, token: TokenEndpointTarget) async throws(AuditUnreachable) {
        let ledger = context.ledger
        let tokens = TokenEndpointAudit(target: token, redirectURI: redirectURI, httpClient: httpClient, bounds: bounds, context: context)
        let google = tokens.client(token.clientAuth)
        let answer = try await tokens.post(
            token.url,
            [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", target.redirectURI)],
            google,
            grant: .authorizationCode,
            for: "android.token-exchange: android.code's code, with REDIRECT_URI"
        )
        let line =
            "POST \(token.url) grant_type=authorization_code, \(TokenEndpointAudit.redacted("code", code)), redirect_uri=\(target.redirectURI): \(answer)"
        if answer.issuedTokens {
            ledger.record(.androidTokenExchange, .held("exchanged with REDIRECT_URI \(target.redirectURI): \(answer.summary)", evidence: [line]))
            judgedByTheTokenRules()
        } else {
            ledger.record(
                .androidTokenExchange,
                .fail(
                    "the code the app returned, exchanged with REDIRECT_URI \(target.redirectURI), got \(answer.summary), not tokens",
                    evidence: [line]
                )
            )
        }
        let session: CallerSession
        switch try await open(as: target.caller) {
        case .success(let opened): session = opened
        case .failure(let refused): throw AuditUnreachable("\(refused)")
        }
        let scopes = target.scopes.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let probe = TokenEndpointAudit.ScopeProbe(
            check: .androidScope,
            app: .init(codes: ScopedCodes(audit: self, session: session, asString: false), redirectURI: target.redirectURI),
            control: scopeControl.map { .init(codes: $0) },
            witness: .init(codes: ScopedCodes(audit: self, session: session, asString: true), redirectURI: target.redirectURI),
            requests: scopes.map { [$0] } + (scopes.count > 1 ? [scopes] : []),
            codeNeed: .androidCode,
            exchangeRule: .androidTokenExchange,
            tokensNeed: .androidCode,
            parameter: "SCOPE",
            label: Self.scopeList,
            notPassedOn: "the app does not pass SCOPE on as sent",
            witnessShows:
                "the app reads SCOPE as a String (getStringExtra), which is null for the String[] Google sends, so the server grants its default"
        )
        do {
            try await tokens.scopeFidelity(probe, google)
        } catch {
            await session.close()
            throw error
        }
        await session.close()
    }

    /// The `token.*` rules that hold every token response (`TokenResponseJudge`) judge the Android exchange's
    /// answer too. When the token checks had no code of their own (no partner app or authorization endpoint in
    /// the audit, or no code from them), the needs those rules declare are met for them by this answer.
    private func judgedByTheTokenRules() {
        let ledger = context.ledger
        let snapshot = ledger.snapshot()
        for check in TokenResponseJudge.checks {
            for need in [AuditNeed.code, .workingClientAuth, .tokens] where snapshot.needs[need] != .met && snapshot.ownNeeds[check]?[need] == nil {
                ledger.set(need, .met, for: check)
            }
        }
    }

    /// A `String[]` of scopes as the report writes it: `["profile", "devices"]`.
    @Sendable static func scopeList(_ scopes: [String]) -> String {
        "[" + scopes.map { String(reflecting: $0) }.joined(separator: ", ") + "]"
    }

    /// The app's codes for `android.scope`, each from a valid intent as the Google app sends it but for its
    /// `SCOPE`: a String[] as Google sends it, or (`asString`) the same scopes as one String, which shows an app
    /// that reads `SCOPE` with `getStringExtra`.
    struct ScopedCodes: ScopedCodeSource {
        let audit: AndroidAppAudit
        let session: CallerSession
        let asString: Bool

        func freshCode(redirectURI: AppFlipRedirectURI) async throws -> String {
            try await freshCode(redirectURI: redirectURI, scopes: audit.target.scopes)
        }

        /// A code for `scopes`; `redirectURI` is not the intent's (`REDIRECT_URI` is the target's). When the app
        /// gives none, a ``CodeShortfall`` that says whose fault it is.
        func freshCode(redirectURI: AppFlipRedirectURI, scopes: [String]) async throws -> String {
            let joined = scopes.joined(separator: " ")
            let value: IntentExtra = asString ? .string(joined) : .stringArray(scopes)
            let label =
                asString
                ? "SCOPE \(String(reflecting: joined)), a String, not the String[] Google sends" : "SCOPE \(AndroidAppAudit.scopeList(scopes))"
            let started = await audit.start(label, on: session, extras: [AndroidAppFlip.scope: value])
            if let code = started.code {
                if let earlier = started.repeated {
                    throw CodeShortfall(
                        state: .brokeRule(.androidCode, "the intent \(label) got the code already returned to \(earlier) (android.code)")
                    )
                }
                return code
            }
            if asString { throw CodeShortfall(state: .nothingToJudge("no code: \(started.summary)")) }
            switch Blame.androidStart(failure: started.failureCode, message: started.summary, verdict: started.verdict) {
            case .broke(let rule, let why):
                if scopes == audit.target.scopes && !Blame.judgedEverywhere.contains(rule) {
                    audit.context.ledger.record(rule, .fail("a later valid intent: \(why)"))
                }
                throw CodeShortfall(state: .brokeRule(rule, "the app gave no code: \(why)"))
            case .brokeEarlier(let rule, let why):
                throw CodeShortfall(state: .brokeRule(rule, "the app gave no code: \(why)"))
            case .couldNotRun(let cause, let why):
                throw CodeShortfall(state: .couldNotRun(cause, "the app gave no code: \(why)"))
            case .met(let why):
                throw CodeShortfall(state: .nothingToJudge(why))
            }
        }
    }
}
