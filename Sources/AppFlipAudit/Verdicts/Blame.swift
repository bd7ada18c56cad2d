import AppFlipCore
import AppFlipGoogle
import AppFlipProtocol

/// The one place an unmet need is blamed: on the audit's own input (could not run, exit status 1, with its
/// ``CouldNotRunCause``), or on the partner's answer to a valid request (the rule that answer broke fails,
/// exit status 2, and what needed it is skipped naming the rule). Each source of a need has its classifier
/// here, pure, so that a table-driven test holds every cause to its classification.
enum Blame: Sendable, Equatable {
    /// The need is met; the reason is the establishing check's.
    case met(String)
    case couldNotRun(CouldNotRunCause, String)
    case broke(CheckSpec, String)
    /// The cause is a rule another check already failed for (the app's own authorization endpoint requires
    /// PKCE): what needs it is skipped naming that rule, which is reported once, there.
    case brokeEarlier(CheckSpec, String)

    /// Writes the classification of `need` into `ledger`: the establishing check `check` passes (`met`), could
    /// not run, or the broken rule fails and the need is unmet naming it.
    func apply(to need: AuditNeed, establishedBy check: CheckSpec, in ledger: AuditLedger, evidence: [String]) {
        switch self {
        case .met(let why):
            ledger.establish(need)
            ledger.record(check, .held(why, evidence: evidence))
        case .couldNotRun(let cause, let why):
            ledger.set(need, .couldNotRun(cause, why))
            ledger.record(check, .note(evidence))
        case .broke(let rule, let why):
            ledger.set(need, .brokeRule(rule, why))
            if !Self.judgedEverywhere.contains(rule) { ledger.record(rule, .fail(why, evidence: evidence)) }
            if rule != check { ledger.record(check, .note(evidence)) }
        case .brokeEarlier(let rule, let why):
            ledger.set(need, .brokeRule(rule, why))
            ledger.record(check, .note(evidence))
        }
    }

    /// The rules a judge holds every answer of the run to: their findings come from the judge, once.
    static let judgedEverywhere: Set<CheckSpec> = [.partnerResultShape, .partnerErrorValues, .authorizeRedirectShape, .androidResultContract]
}

// MARK: The authorization endpoint

extension Blame {
    /// `authorize.sign-in`: is the credential accepted? A valid request must end at its redirect_uri (by an
    /// HTTP redirect, after redirects on the server's own origin, or by a page that forwards or posts to it).
    static func signIn(_ answer: AuthorizationAnswer) -> Blame {
        let first = answer.hops[0]
        if let location = answer.location, answer.redirectURIs.contains(URLDifference.base(of: location)) {
            return .met(
                answer.followed || answer.pageRedirect != nil
                    ? "a valid request reached its redirect_uri through the server's own pages" : "a valid request was redirected to its redirect_uri"
            )
        }
        if answer.postsToRedirectURI { return .met("a valid request reached its redirect_uri by a page that posts to it") }
        if answer.status == 401 || answer.status == 403 || first.status == 401 || first.status == 403 {
            return .couldNotRun(.signInRefused, "the sign-in credential was refused: \(answer)")
        }
        if (500..<600).contains(answer.status) {
            return .couldNotRun(.serverError, "a valid request got \(answer): the authorization endpoint is down")
        }
        if (300..<400).contains(first.status) && first.location != nil {
            return .couldNotRun(
                .signInRefused,
                "the sign-in credential was refused: a valid request was sent away from its redirect_uri, as to a login page: \(answer)"
            )
        }
        if (400..<500).contains(first.status) {
            return .couldNotRun(
                .contradictoryOptions,
                "a valid request got \(answer), neither a redirect to its redirect_uri nor a sign-in refusal (is --client-id registered with the 12 App Flip redirect URIs?)"
            )
        }
        return .couldNotRun(
            .signInRefused,
            "a valid request got \(answer), neither a redirect to its redirect_uri nor a sign-in refusal: a page of the server, as when the sign-in credential was refused or the user must still act (sign in, consent)"
        )
    }

    /// The probes that tell why a valid request got no code, when it got an error on its redirect_uri.
    struct AuthorizationProbes {
        /// The same request with an S256 `code_challenge`.
        var withPKCE: AuthorizationAnswer?
        /// Each scope asked alone, when the request asked for several.
        var scopesAlone: [(scope: String, answer: AuthorizationAnswer)] = []
    }

    /// `authorize.code`, once `authorize.sign-in` is met: does a valid request as Google sends it get a code
    /// in the redirect's query? `code` reads a code from an answer (nil when it carries none usable).
    static func authorizationCode(
        _ answer: AuthorizationAnswer,
        probes: AuthorizationProbes,
        code: (AuthorizationAnswer) -> String?
    ) -> Blame {
        if code(answer) != nil { return .met("a valid request without code_challenge got a code") }
        guard let location = answer.location, !answer.postsToRedirectURI else {
            return .broke(
                .authorizeRedirectShape,
                "the code is posted to the redirect_uri by a page (form_post), not carried in the redirect's query: \(answer)"
            )
        }
        if let problem = LocationJudge.responseProblem(location) { return .broke(.authorizeRedirectShape, "\(problem): \(answer)") }
        let error = LocationJudge.parameter("error", in: location)
        if let withPKCE = probes.withPKCE, code(withPKCE) != nil {
            return .broke(
                .authorizeCode,
                "the server requires PKCE for Google's client: a request without code_challenge, as every App Flip link is, got \(answer); with code_challenge it gets a code (Google's token request carries no code_verifier either)"
            )
        }
        if !probes.scopesAlone.isEmpty {
            let refused = probes.scopesAlone.filter { code($0.answer) == nil }
            if refused.isEmpty {
                return .broke(
                    .authorizeCode,
                    "a valid request for scope \(String(reflecting: probes.scopesAlone.map(\.scope).joined(separator: " "))), space-separated as Google sends it, got \(answer); each scope alone gets a code: the scope list is refused for the way it is written (RFC 6749 §3.3)"
                )
            }
            if error == "invalid_scope" {
                return .couldNotRun(
                    .contradictoryOptions,
                    "--scope \(refused.map(\.scope).joined(separator: ", ")) is refused even alone (\(refused[0].answer)): the client may not ask for it"
                )
            }
        }
        switch error {
        case "access_denied"?:
            return .couldNotRun(.userCannotLink, "a valid request got \(answer): the signed-in user may not link")
        case "server_error"?, "temporarily_unavailable"?:
            return .couldNotRun(.serverError, "a valid request got \(answer)")
        case "unauthorized_client"?, "invalid_scope"?:
            return .couldNotRun(
                .contradictoryOptions,
                "a valid request got \(answer): --client-id is not allowed the code grant, or --scope is not the client's"
            )
        default:
            return .broke(.authorizeCode, "a valid request as Google sends it got \(answer), no code, with or without PKCE")
        }
    }
}

// MARK: The partner app

extension Blame {
    /// `partner.code`: is a valid flip link answered with a code? `firstScopeAlone`: the same link asking for
    /// the first scope alone, sent when the app answered `invalid_request` to several. `authorization`: where
    /// the audit's own authorization-endpoint target stands, when it has one: an app that says its user
    /// cannot link because that endpoint broke a rule is that rule's cause, not the audit's input.
    static func flip(
        _ flip: PartnerFlip,
        _ verdict: FlipResultVerdict?,
        firstScopeAlone: FlipResultVerdict.Outcome?? = nil,
        authorization: NeedState? = nil
    ) -> Blame {
        let blame = appAnswer(flip, verdict, firstScopeAlone: firstScopeAlone)
        guard case .couldNotRun(.userCannotLink, let why) = blame, let authorization else { return blame }
        switch authorization {
        case .brokeRule(let rule, let cause): return .brokeEarlier(rule, "\(why); the authorization endpoint: \(cause)")
        case .couldNotRun(_, let cause): return .couldNotRun(.userCannotLink, "\(why); the authorization endpoint: \(cause)")
        default: return blame
        }
    }

    private static func appAnswer(_ flip: PartnerFlip, _ verdict: FlipResultVerdict?, firstScopeAlone: FlipResultVerdict.Outcome??) -> Blame {
        let answered = "\(flip.answerSummary), opened \(flip.openedSummary)"
        if let refusal = flip.refusal {
            switch refusal.code {
            case .declined: return .broke(.partnerCode, "the app declined a valid flip link (\(answered)): it must return a code or an error")
            case .handlerFailed: return .broke(.partnerCode, "the app broke on a valid flip link: \(answered)")
            default: return .couldNotRun(.unreachable, "a valid flip link got \(answered)")
            }
        }
        guard let url = flip.resultURL, let verdict else {
            return .broke(.partnerCode, "the app answered a valid flip link by opening nothing: it must return a code or an error")
        }
        switch verdict.outcome {
        case .code?:
            return .met("a valid flip got a code")
        case .error(.cancelled, _)?, .error(.unrecoverable, _)?:
            return .couldNotRun(.userCannotLink, "a valid flip got no code: \(answered), the result \(LocationText.shown(url))")
        case .error(.invalidRequest, _)?:
            if case .code?? = firstScopeAlone {
                return .broke(
                    .partnerCode,
                    "the app answered a valid flip link invalid_request, and the same link with its first scope alone a code: it refuses the scope list as Google writes it, space-separated"
                )
            }
            return .broke(.partnerCode, "the app answered a valid flip link invalid_request: \(LocationText.shown(url))")
        case nil:
            if let unknown = verdict.violations.first(where: { if case .unknownError = $0 { true } else { false } }) {
                return .broke(.partnerErrorValues, "a valid flip link got \(unknown): \(LocationText.shown(url))")
            }
            let problem = verdict.violations.first.map(String.init(describing:)) ?? "no code"
            return .broke(.partnerResultShape, "a valid flip link got a result without a usable code (\(problem)): \(LocationText.shown(url))")
        }
    }
}

// MARK: The Android app

extension Blame {
    /// `android.code`: does the Google app's valid intent get a code? `failure` is the daemon's error code when
    /// the start failed, `message` its words.
    static func androidStart(failure: ErrorCode?, message: String?, verdict: AndroidFlipResultChecker.Verdict?) -> Blame {
        if let failure {
            switch failure {
            case .unknownPackage: return .couldNotRun(.appNotInstalled, "the Google app's intent found no app: \(message ?? failure.rawValue)")
            case .activityNotFound, .activityNotExported:
                return .broke(.androidAction, "the Google app's intent does not resolve: \(message ?? failure.rawValue)")
            case .handlerFailed: return .broke(.androidCode, "the app broke on the Google app's valid intent: \(message ?? failure.rawValue)")
            default: return .couldNotRun(.unreachable, "the Google app's intent got \(message ?? failure.rawValue)")
            }
        }
        guard let verdict else { return .couldNotRun(.unreachable, message ?? "the Google app's intent got no result") }
        switch verdict.outcome {
        case .code(let code)?:
            return .met("RESULT_OK with a code of \(code.utf8.count) bytes, sha256:\(Fingerprint.of(code))")
        case .canceled?, .error(.recoverable, _, _)?, .error(.unrecoverable, _, _)?:
            return .couldNotRun(.userCannotLink, "the Google app's valid intent got no code: \(message ?? "")")
        case .error(.invalidRequest, _, _)?:
            return .broke(.androidCode, "the Google app's valid intent was answered as an invalid request (ERROR_TYPE 3): \(message ?? "")")
        case nil:
            return .broke(
                .androidResultContract,
                "the Google app's valid intent got a result that breaks the contract: \(verdict.violations.joined(separator: "; "))"
            )
        }
    }
}

// MARK: The lifecycle options

extension Blame {
    /// `second-client-auth`: does the token endpoint accept the second client's credentials? `answers` are
    /// its answers to a made-up refresh token, by each method tried: anything but `invalid_client` (or a 401)
    /// is the client authenticated, the token refused.
    static func secondClient(_ answers: [(method: ClientAuthMethod, answer: TokenAnswer)]) -> Blame {
        let said = answers.map { "\($0.method.name): \($0.answer)" }.joined(separator: "; ")
        if let accepted = answers.first(where: {
            !$0.answer.isError("invalid_client", statuses: [400, 401]) && $0.answer.status != 401 && $0.answer.status < 500
        }) {
            return .met("the second client is accepted (\(accepted.method.name)): \(said)")
        }
        if answers.contains(where: { $0.answer.status >= 500 }) {
            return .couldNotRun(.serverError, "the token endpoint answered the second client with a server error: \(said)")
        }
        return .couldNotRun(
            .contradictoryOptions,
            "the token endpoint refused the second client's credentials (\(said)): check --second-client-id and --second-client-secret-file"
        )
    }

    /// `signed-out`: did `--sign-out-url` end the session? `after` is the authorization endpoint's answer to
    /// the session's credential once signed out, and `code` the code it carries, if any: a code is the
    /// session alive, and the sign-out the audit's input that did not work.
    static func signOut(_ after: AuthorizationAnswer, code: String?, signOut: String) -> Blame {
        guard code != nil else { return .met("once signed out, the session's credential got no code: \(after)") }
        return .couldNotRun(
            .sessionNotEnded,
            "\(signOut) answered, but the session's credential still gets a code (\(after)): the session did not end"
        )
    }
}
