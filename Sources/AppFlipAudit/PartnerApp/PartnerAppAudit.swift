import AppFlipClient
public import AppFlipCore
import AppFlipGoogle

/// The partner-app checks, through appflipd: flip links sent as the Google app (universal-links-only), and
/// what the app opened judged as Google's app would. Flips run one at a time, so every URL the Google app
/// receives belongs to the flip just sent. It also supplies codes to the token-endpoint checks.
public struct PartnerAppAudit: ScopedCodeSource, CodeOrigin {
    /// The app and what to send it.
    public var target: PartnerAppTarget
    /// The redirect URI of the checks that need one (the state battery, the lookalikes' original).
    public var redirectURI: AppFlipRedirectURI
    let connection: AppFlipConnection
    let google: GoogleApp
    let context: AuditContext
    /// Problems seen across flips, for the checks that judge every result (shape, error values).
    let observations = FlipObservations()
    /// One flip at a time, whoever sends it (the families, the token checks' codes): every URL the Google app
    /// receives belongs to the flip just sent.
    let flips = AsyncGate(capacity: 1)

    /// An audit on `connection`, with `google` registered for every Google app's redirect path
    /// (`GoogleApp.register(on:bundleID: nil)`), so that whatever the app opens there is seen.
    init(target: PartnerAppTarget, redirectURI: AppFlipRedirectURI, connection: AppFlipConnection, google: GoogleApp, context: AuditContext) {
        self.target = target
        self.redirectURI = redirectURI
        self.connection = connection
        self.google = google
        self.context = context
    }

    var codeCheck: CheckSpec { .partnerCode }

    /// The families, once `routeAndCode()` found the app; each check's verdict is built from what they
    /// record. Throws only when appflipd cannot be reached.
    func families() async throws(AuditUnreachable) {
        if context.ledger.isMet(.appCode) {
            try await equivalentLinks()
            try await redirectURIs()
            try await states(success: true)
        }
        try await states(success: false)
        try await wrongClientID()
        try await lookalikes()
        try await invalidRequests()
    }

    /// Records the checks that judge every result of the run, once the last flip (the token checks' too) is in.
    func finish() {
        observations.record(into: context.ledger)
    }

    /// `partner.route` and `partner.code` on one valid flip; false when the link reaches no app.
    func routeAndCode() async throws(AuditUnreachable) -> Bool {
        let ledger = context.ledger
        let state = "appflip-audit-route"
        let routed = try await flip(fields(state: state, redirectURI: redirectURI.string), for: "partner.route, partner.code: a valid flip link")
        let evidence = ["sent \(routed.link)", "answer: \(routed.answerSummary), opened \(routed.openedSummary)"]
        guard routed.app != nil else {
            let why = "\(routed.answerSummary): the flip link reaches no app"
            ledger.set(.appRoute, .brokeRule(.partnerRoute, why))
            ledger.record(.partnerRoute, .fail(why, evidence: ["sent \(routed.link)"]))
            return false
        }
        ledger.establish(.appRoute)
        ledger.record(.partnerRoute, .held("routed to \(routed.app ?? "?") by \(routed.rule ?? "?")", evidence: evidence))
        let verdict = judge(routed, redirectURI: redirectURI.string, state: state)
        var firstScopeAlone: FlipResultVerdict.Outcome?? = nil
        if case .error(.invalidRequest, _)? = verdict?.outcome, target.scopes.count > 1 {
            let aloneState = "appflip-audit-route-scope"
            let alone = try await flip(
                fields(state: aloneState, redirectURI: redirectURI.string, scopes: [target.scopes[0]]),
                for: "partner.code: the first scope alone"
            )
            firstScopeAlone = .some(judge(alone, redirectURI: redirectURI.string, state: aloneState)?.outcome)
        }
        if case .code(let code)? = verdict?.outcome { register(code, from: "the partner.code flip") }
        let authorization = ledger.state(of: .signIn) == .met ? ledger.state(of: .authorizationCode) : ledger.state(of: .signIn)
        Blame.flip(routed, verdict, firstScopeAlone: firstScopeAlone, authorization: authorization).apply(
            to: .appCode,
            establishedBy: .partnerCode,
            in: ledger,
            evidence: evidence
        )
        return true
    }

    /// Registers a code the app returned; one returned before breaks `partner.code`.
    func register(_ code: String, from flip: String) {
        if let earlier = context.codes.register(code, by: flip) {
            context.ledger.record(.partnerCode, .fail("\(flip) got the code already returned to \(earlier): each valid flip link gets a new code"))
        }
    }

    /// A fresh code for the token-endpoint checks: one valid flip to `redirectURI`.
    public func freshCode(redirectURI: AppFlipRedirectURI) async throws -> String {
        try await freshCode(redirectURI: redirectURI, scopes: target.scopes)
    }

    /// A fresh code from one valid flip to `redirectURI` whose link asks for `scopes`; when the app gives
    /// none, a ``CodeShortfall`` that says whose fault it is (the rule it broke fails here).
    public func freshCode(redirectURI: AppFlipRedirectURI, scopes: [String]) async throws -> String {
        let state = "appflip-audit-code-" + String(UInt64.random(in: .min ... .max), radix: 36)
        let answered = try await flip(fields(state: state, redirectURI: redirectURI.string, scopes: scopes), for: "a fresh code from the partner app")
        let checker = FlipResultChecker(redirectURI: redirectURI.string, state: state)
        if let delivered = answered.delivered.first, case .code(let code)? = checker.check(delivered).outcome {
            _ = judge(answered, redirectURI: redirectURI.string, state: state)
            return code
        }
        let verdict = judge(answered, redirectURI: redirectURI.string, state: state)
        switch Blame.flip(answered, verdict) {
        case .broke(let rule, let why):
            if scopes == target.scopes && !Blame.judgedEverywhere.contains(rule) {
                context.ledger.record(rule, .fail("a later valid flip link: \(why)"))
            }
            throw CodeShortfall(state: .brokeRule(rule, "the partner app gave no code: \(why)"))
        case .couldNotRun(let cause, let why):
            throw CodeShortfall(state: .couldNotRun(cause, "the partner app gave no code: \(why)"))
        case .brokeEarlier(let rule, let why):
            throw CodeShortfall(state: .brokeRule(rule, "the partner app gave no code: \(why)"))
        case .met(let why):
            throw CodeShortfall(state: .nothingToJudge(why))
        }
    }
}
