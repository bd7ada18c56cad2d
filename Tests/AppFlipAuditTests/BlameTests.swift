import AppFlipCore
import AppFlipGoogle
import AppFlipProtocol
import Testing

@testable import AppFlipAudit

/// Blame in one place, by table: every answer a need can meet, classified as the audit's own input (could
/// not run, with its cause) or as the rule the partner's answer to a valid request broke. Every
/// ``CouldNotRunCause`` has a row; no partner answer to a valid request is could-not-run unless the partner
/// itself says its user cannot link.
@Suite struct BlameTests {
    static let redirect = "https://oauth-redirect.googleusercontent.com/a/com.google.OPA"
    static let state = "s"

    /// What a classification comes to, without its words.
    enum Expected: Equatable, CustomStringConvertible {
        case met
        case couldNotRun(CouldNotRunCause)
        case broke(String)

        init(_ blame: Blame) {
            switch blame {
            case .met: self = .met
            case .couldNotRun(let cause, _): self = .couldNotRun(cause)
            case .broke(let rule, _), .brokeEarlier(let rule, _): self = .broke(rule.id)
            }
        }

        var description: String {
            switch self {
            case .met: "met"
            case .couldNotRun(let cause): "could not run (\(cause.rawValue))"
            case .broke(let rule): "\(rule) fails"
            }
        }
    }

    static func hop(_ status: UInt, _ location: String? = nil, id: Int = 1) -> AuthorizationAnswer.Hop {
        AuthorizationAnswer.Hop(exchange: id, url: "https://partner.test/authorize", status: status, location: location, contentType: nil)
    }

    static func answer(_ hops: [AuthorizationAnswer.Hop], page: String? = nil, posts: Bool = false) -> AuthorizationAnswer {
        var answer = AuthorizationAnswer(hops: hops, redirectURIs: [redirect])
        answer.pageRedirect = page
        answer.postsToRedirectURI = posts
        return answer
    }

    // MARK: authorize.sign-in

    static let signIn: [(String, AuthorizationAnswer, Expected)] = [
        ("a redirect to the redirect_uri", answer([hop(302, "\(redirect)?code=c&state=s")]), .met),
        ("after a redirect on the server's own origin", answer([hop(302, "/consent"), hop(302, "\(redirect)?code=c&state=s", id: 2)]), .met),
        ("a page that forwards to the redirect_uri", answer([hop(200)], page: "\(redirect)?code=c&state=s"), .met),
        ("a page that posts to the redirect_uri", answer([hop(200)], posts: true), .met),
        ("401", answer([hop(401)]), .couldNotRun(.signInRefused)),
        ("403", answer([hop(403)]), .couldNotRun(.signInRefused)),
        ("a redirect to a login page, followed", answer([hop(302, "/login?next=x"), hop(200, id: 2)]), .couldNotRun(.signInRefused)),
        ("a redirect to another origin's sign-in", answer([hop(302, "https://sso.example/login")]), .couldNotRun(.signInRefused)),
        ("a page of the server", answer([hop(200)]), .couldNotRun(.signInRefused)),
        ("503", answer([hop(503)]), .couldNotRun(.serverError)),
        ("a request error before any redirect", answer([hop(400)]), .couldNotRun(.contradictoryOptions)),
    ]

    @Test(arguments: signIn)
    func signInIsBlamedOnce(label: String, answer: AuthorizationAnswer, expected: Expected) {
        #expect(Expected(Blame.signIn(answer)) == expected, "\(label)")
    }

    // MARK: authorize.code

    static func code(_ answer: AuthorizationAnswer) -> String? {
        guard let location = answer.location, LocationJudge.responseProblem(location) == nil else { return nil }
        return LocationJudge.parameter("code", in: location)
    }

    static func redirected(_ parameters: String) -> AuthorizationAnswer { answer([hop(302, "\(redirect)?\(parameters)")]) }

    static let codes: [(String, AuthorizationAnswer, Blame.AuthorizationProbes, Expected)] = [
        ("a code in the query", redirected("code=c&state=s"), .init(), .met),
        ("the code posted by a page", answer([hop(200)], posts: true), .init(), .broke("authorize.redirect-shape")),
        ("the code in the fragment", answer([hop(302, "\(redirect)#code=c&state=s")]), .init(), .broke("authorize.redirect-shape")),
        ("the state twice", redirected("code=c&state=s&state=s"), .init(), .broke("authorize.redirect-shape")),
        ("an unregistered error", redirected("error=nope&state=s"), .init(), .broke("authorize.redirect-shape")),
        ("neither code nor error", redirected("state=s"), .init(), .broke("authorize.redirect-shape")),
        ("PKCE required", redirected("error=invalid_request&state=s"), .init(withPKCE: redirected("code=c&state=s")), .broke("authorize.code")),
        (
            "the scope list refused, each scope alone taken", redirected("error=invalid_scope&state=s"),
            .init(scopesAlone: [("a", redirected("code=c&state=s")), ("b", redirected("code=d&state=s"))]), .broke("authorize.code")
        ),
        (
            "a scope refused even alone", redirected("error=invalid_scope&state=s"),
            .init(scopesAlone: [("a", redirected("code=c&state=s")), ("b", redirected("error=invalid_scope&state=s"))]),
            .couldNotRun(.contradictoryOptions)
        ),
        ("invalid_scope for one scope", redirected("error=invalid_scope&state=s"), .init(), .couldNotRun(.contradictoryOptions)),
        ("unauthorized_client", redirected("error=unauthorized_client&state=s"), .init(), .couldNotRun(.contradictoryOptions)),
        ("access_denied", redirected("error=access_denied&state=s"), .init(), .couldNotRun(.userCannotLink)),
        ("server_error", redirected("error=server_error&state=s"), .init(), .couldNotRun(.serverError)),
        ("temporarily_unavailable", redirected("error=temporarily_unavailable&state=s"), .init(), .couldNotRun(.serverError)),
        ("invalid_request to a valid request", redirected("error=invalid_request&state=s"), .init(), .broke("authorize.code")),
        ("unsupported_response_type", redirected("error=unsupported_response_type&state=s"), .init(), .broke("authorize.code")),
    ]

    @Test(arguments: codes)
    func authorizationCodeIsBlamedOnce(label: String, answer: AuthorizationAnswer, probes: Blame.AuthorizationProbes, expected: Expected) {
        #expect(Expected(Blame.authorizationCode(answer, probes: probes, code: Self.code)) == expected, "\(label)")
    }

    // MARK: partner.code

    static func flip(refusal: ErrorBody? = nil, opened: [String] = []) -> PartnerFlip {
        PartnerFlip(
            link: "https://partner.test/link?state=s",
            app: "T.app",
            rule: "/link/*",
            refusal: refusal,
            opened: opened.map { OpenedURL(url: $0, universalLinksOnly: true, status: .delivered) },
            delivered: opened
        )
    }

    static func result(_ parameters: String) -> PartnerFlip { flip(opened: ["\(redirect)?\(parameters)"]) }

    static let flips: [(String, PartnerFlip, FlipResultVerdict.Outcome??, Expected)] = [
        ("a code", result("code=c&state=s"), nil, .met),
        ("declined", flip(refusal: ErrorBody(.declined, "declined")), nil, .broke("partner.code")),
        ("the handler broke", flip(refusal: ErrorBody(.handlerFailed, "crashed")), nil, .broke("partner.code")),
        ("nothing opened", flip(), nil, .broke("partner.code")),
        ("invalid_request to a valid link", result("error=invalid_request&state=s"), nil, .broke("partner.code")),
        ("the scope list refused, one scope taken", result("error=invalid_request&state=s"), .some(.code("c")), .broke("partner.code")),
        ("an error value outside App Flip's", result("error=user_not_authorized&state=s"), nil, .broke("partner.error-values")),
        ("the code in a fragment", flip(opened: ["\(redirect)#code=c&state=s"]), nil, .broke("partner.result-shape")),
        ("the code twice", result("code=c&state=s&code=c"), nil, .broke("partner.result-shape")),
        ("cancelled", result("error=cancelled&state=s"), nil, .couldNotRun(.userCannotLink)),
        ("unrecoverable", result("error=unrecoverable&state=s"), nil, .couldNotRun(.userCannotLink)),
        ("no answer in time", flip(refusal: ErrorBody(.timeout, "the handler did not answer")), nil, .couldNotRun(.unreachable)),
    ]

    @Test(arguments: flips)
    func aFlipIsBlamedOnce(label: String, flip: PartnerFlip, firstScopeAlone: FlipResultVerdict.Outcome??, expected: Expected) {
        let verdict = flip.resultURL.map { FlipResultChecker(redirectURI: Self.redirect, state: Self.state).check($0) }
        #expect(Expected(Blame.flip(flip, verdict, firstScopeAlone: firstScopeAlone)) == expected, "\(label)")
    }

    /// An app that says its user cannot link because its own authorization endpoint broke a rule (PKCE
    /// required) is skipped naming that rule, reported once there; one whose endpoint refused the sign-in is
    /// still the audit's input.
    @Test func anAppThatCannotLinkIsBlamedOnItsAuthorizationEndpoint() {
        let cancelled = Self.result("error=unrecoverable&state=s")
        let verdict = cancelled.resultURL.map { FlipResultChecker(redirectURI: Self.redirect, state: Self.state).check($0) }
        let pkce = Blame.flip(cancelled, verdict, authorization: .brokeRule(.authorizeCode, "PKCE required"))
        #expect(Expected(pkce) == .broke("authorize.code"))
        guard case .brokeEarlier = pkce else {
            Issue.record("the rule failed once, at authorize.code: \(pkce)")
            return
        }
        let refused = Blame.flip(cancelled, verdict, authorization: .couldNotRun(.signInRefused, "401"))
        #expect(Expected(refused) == .couldNotRun(.userCannotLink))
    }

    // MARK: android.code

    static let starts: [(String, ErrorCode?, IntentResult?, Expected)] = [
        ("a code", nil, AndroidAppFlip.code("c"), .met),
        ("the package is not installed", .unknownPackage, nil, .couldNotRun(.appNotInstalled)),
        ("the manifest lacks the console's action", .activityNotFound, nil, .broke("android.action")),
        ("the activity is not exported", .activityNotExported, nil, .broke("android.action")),
        ("RESULT_CANCELED", nil, AndroidAppFlip.canceled, .couldNotRun(.userCannotLink)),
        ("ERROR_TYPE 1", nil, AndroidAppFlip.error(.recoverable, code: 1), .couldNotRun(.userCannotLink)),
        ("ERROR_TYPE 2", nil, AndroidAppFlip.error(.unrecoverable, code: 2), .couldNotRun(.userCannotLink)),
        ("ERROR_TYPE 3 to a valid intent", nil, AndroidAppFlip.error(.invalidRequest, code: 3), .broke("android.code")),
        ("RESULT_OK with an empty code", nil, AndroidAppFlip.code(""), .broke("android.result-contract")),
        ("the app crashed on a valid intent", .handlerFailed, nil, .broke("android.code")),
        ("no reply", .timeout, nil, .couldNotRun(.unreachable)),
    ]

    @Test(arguments: starts)
    func anAndroidStartIsBlamedOnce(label: String, failure: ErrorCode?, result: IntentResult?, expected: Expected) {
        let blame = Blame.androidStart(failure: failure, message: label, verdict: result.map(AndroidFlipResultChecker.check))
        #expect(Expected(blame) == expected, "\(label)")
    }

    // MARK: token.client-auth

    static func token(_ status: Int, _ body: String) -> TokenAnswer {
        TokenAnswer(
            exchange: 1,
            status: status,
            contentType: "application/json",
            cacheControl: "no-store",
            wwwAuthenticate: nil,
            authentication: "test",
            body: Array(body.utf8),
            secretsSent: []
        )
    }

    static let tokens = #"{"access_token":"a","token_type":"Bearer","expires_in":60}"#
    static let invalidClient = #"{"error":"invalid_client"}"#

    @Test func clientAuthenticationIsBlamedOnce() {
        func blame(_ configured: TokenAnswer, _ other: TokenAnswer) -> TokenEndpointAudit.ClientAuthBlame {
            TokenEndpointAudit.blame(configured: (.post, configured), other: (.basic, other))
        }
        #expect(blame(Self.token(200, Self.tokens), Self.token(401, Self.invalidClient)).isConfigured)
        guard case .other = blame(Self.token(401, Self.invalidClient), Self.token(200, Self.tokens)) else {
            Issue.record("the other method works: token.client-auth fails, the checks go on with it")
            return
        }
        #expect(
            blame(Self.token(401, Self.invalidClient), Self.token(400, Self.invalidClient))
                == .refused(.contradictoryOptions, blame(Self.token(401, Self.invalidClient), Self.token(400, Self.invalidClient)).reason)
        )
        guard case .refused(.serverError, _) = blame(Self.token(503, "{}"), Self.token(500, "{}")) else {
            Issue.record("a token endpoint down both ways is could not run (server-error)")
            return
        }
        guard case .noTokens = blame(Self.token(400, #"{"error":"invalid_grant"}"#), Self.token(400, #"{"error":"invalid_grant"}"#)) else {
            Issue.record("a valid code refused for another reason breaks token.exchange")
            return
        }
    }

    // MARK: The lifecycle options

    static let secondClients: [(String, [(method: ClientAuthMethod, answer: TokenAnswer)], Expected)] = [
        ("a made-up refresh token refused with invalid_grant", [(.post, token(400, #"{"error":"invalid_grant"}"#))], .met),
        (
            "refused one way, invalid_grant the other",
            [(.post, token(401, #"{"error":"invalid_client"}"#)), (.basic, token(400, #"{"error":"invalid_grant"}"#))], .met
        ),
        (
            "invalid_client both ways", [(.post, token(401, #"{"error":"invalid_client"}"#)), (.basic, token(400, #"{"error":"invalid_client"}"#))],
            .couldNotRun(.contradictoryOptions)
        ),
        ("a server error", [(.post, token(503, "{}"))], .couldNotRun(.serverError)),
    ]

    @Test(arguments: secondClients)
    func theSecondClientIsBlamedOnTheOptions(_ row: (String, [(method: ClientAuthMethod, answer: TokenAnswer)], Expected)) {
        #expect(Expected(Blame.secondClient(row.1)) == row.2, "\(row.0)")
    }

    static let signOuts: [(String, AuthorizationAnswer, String?, Expected)] = [
        ("401 once signed out", answer([hop(401)]), nil, .met),
        ("a redirect to the login page", answer([hop(302, "/login?next=x"), hop(200, id: 2)]), nil, .met),
        ("still a code", answer([hop(302, "\(redirect)?code=c&state=s")]), "c", .couldNotRun(.sessionNotEnded)),
    ]

    @Test(arguments: signOuts) func aSignOutThatEndsNothingIsTheAuditsInput(_ row: (String, AuthorizationAnswer, String?, Expected)) {
        #expect(Expected(Blame.signOut(row.1, code: row.2, signOut: "POST https://partner.test/logout")) == row.3, "\(row.0)")
    }

    /// Every cause of could-not-run is a row of the tables above (the token endpoint's two in the test of
    /// client authentication).
    @Test func everyCouldNotRunCauseHasARow() {
        var causes = Set<CouldNotRunCause>([.contradictoryOptions, .serverError])
        for row in Self.signOuts { if case .couldNotRun(let cause) = row.3 { causes.insert(cause) } }
        for row in Self.secondClients { if case .couldNotRun(let cause) = row.2 { causes.insert(cause) } }
        for row in Self.signIn { if case .couldNotRun(let cause) = row.2 { causes.insert(cause) } }
        for row in Self.codes { if case .couldNotRun(let cause) = row.3 { causes.insert(cause) } }
        for row in Self.flips { if case .couldNotRun(let cause) = row.3 { causes.insert(cause) } }
        for row in Self.starts { if case .couldNotRun(let cause) = row.3 { causes.insert(cause) } }
        #expect(causes == Set(CouldNotRunCause.allCases))
    }
}

extension TokenEndpointAudit.ClientAuthBlame {
    var reason: String {
        switch self {
        case .configured(let why), .other(let why), .refused(_, let why), .noTokens(let why): why
        }
    }
}
