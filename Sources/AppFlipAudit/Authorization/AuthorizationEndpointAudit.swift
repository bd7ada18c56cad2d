public import AppFlipCore
public import AppFlipHTTPClient
public import AsyncHTTPClient

/// The authorization-endpoint checks over HTTP, as the signed-in user's browser: the 12 redirect URIs get a
/// code, lookalikes and an unknown client are never redirected to (RFC 6749 §4.1.2.1, RFC 9700 §4.1), the
/// state comes back byte for byte. It also supplies codes to the token-endpoint checks.
public struct AuthorizationEndpointAudit: ScopedCodeSource, CodeOrigin {
    /// The endpoint, client and user.
    public var target: AuthorizationEndpointTarget
    /// The redirect URI of the state battery and the lookalikes' original.
    public var redirectURI: AppFlipRedirectURI
    /// The bounds of each request: `OutboundBounds.oauth()` unless a test shortens them.
    public var bounds: OutboundBounds
    /// How many independent requests of a family (the 12 redirect URIs, the lookalikes, the states) may be
    /// in flight at once (`--concurrency`).
    public var concurrency: Int = Auditor.defaultConcurrency
    let httpClient: HTTPClient
    let context: AuditContext

    /// An audit of `target`; `httpClient` must not follow redirects (`HTTPClient.Configuration.appFlipOAuth()`).
    public init(
        target: AuthorizationEndpointTarget,
        redirectURI: AppFlipRedirectURI,
        httpClient: HTTPClient,
        bounds: OutboundBounds = .oauth()
    ) {
        self.init(target: target, redirectURI: redirectURI, httpClient: httpClient, bounds: bounds, context: AuditContext())
    }

    init(target: AuthorizationEndpointTarget, redirectURI: AppFlipRedirectURI, httpClient: HTTPClient, bounds: OutboundBounds, context: AuditContext)
    {
        self.target = target
        self.redirectURI = redirectURI
        self.httpClient = httpClient
        self.bounds = bounds
        self.context = context
    }

    var codeCheck: CheckSpec { .authorizeCode }

    /// Runs the authorization-endpoint checks alone and judges them. Throws only when the endpoint cannot be
    /// reached.
    public func run() async throws(AuditUnreachable) -> [AuditResult] {
        context.ledger.establish(.authorizationEndpoint)
        try await probe()
        Judges.run(context)
        return VerdictBuilder.results(AuditCatalogue.checks(of: .authorizationEndpoint), context.ledger.snapshot())
    }

    /// Every probe, the preconditions first: a family that needs what a precondition could not establish is
    /// not sent (its checks are skipped by their needs).
    func probe() async throws(AuditUnreachable) {
        try await preconditions()
        try await families()
    }

    /// The families, once the preconditions are established.
    func families() async throws(AuditUnreachable) {
        guard context.ledger.isMet(.signIn) else { return }
        if context.ledger.isMet(.authorizationCode) {
            try await equivalentRequests()
            try await redirectURIs()
            try await states()
        }
        try await lookalikes()
        try await unknownClient()
    }

    private func redirectURIs() async throws(AuditUnreachable) {
        var failures: [String] = []
        let probes = AppFlipRedirectURI.all.enumerated().map { (uri: $0.element, state: "appflip-audit-uri-\($0.offset)") }
        let answers = try await BoundedProbes.run(probes, limit: concurrency) { probe throws(AuditUnreachable) in
            try await authorize(
                clientID: target.clientID,
                redirectURI: probe.uri.string,
                state: probe.state,
                for: "authorize.redirect-uris: \(probe.uri)"
            )
        }
        for (probe, answer) in zip(probes, answers) {
            if answer.redirected, case .code(let code)? = verdict(answer, redirectURI: probe.uri.string, state: probe.state)?.outcome {
                register(code, from: "authorize.redirect-uris' request for \(probe.uri)")
                continue
            }
            failures.append("\(probe.uri): \(answer)")
        }
        context.ledger.record(
            .authorizeRedirectURIs,
            failures.isEmpty
                ? .held("each of the 12 was redirected to with a code and the state")
                : .fail("\(failures.count) of 12 got no code: " + failures.joined(separator: "; "), evidence: failures)
        )
    }

    /// Whether a redirect to `location` reaches `uri`: it is `uri` itself, or `uri` with parameters added to its
    /// query (a `uri` with a fragment: the same URI before the fragment, and the fragment kept). Compared
    /// exactly, as a redirect URI is (RFC 6749 §3.1.2.3).
    static func reaches(_ location: String, _ uri: String) -> Bool {
        if let mark = uri.firstIndex(of: "#") {
            let fragment = uri[mark...]
            return reaches(String(location.prefix { $0 != "#" }), String(uri[..<mark])) && location.hasSuffix(fragment)
        }
        guard location.hasPrefix(uri) else { return false }
        let rest = location.dropFirst(uri.count)
        return rest.isEmpty || rest.first == "?" || rest.first == "#" || (uri.contains("?") && rest.first == "&")
    }

    /// A fresh code for the token-endpoint checks.
    public func freshCode(redirectURI: AppFlipRedirectURI) async throws -> String {
        try await freshCode(redirectURI: redirectURI, scopes: target.scopes)
    }

    /// A fresh code for `scopes`; when the endpoint gives none, a ``CodeShortfall`` that says whose fault it is.
    public func freshCode(redirectURI: AppFlipRedirectURI, scopes: [String]) async throws -> String {
        let state = "appflip-audit-code-" + String(UInt64.random(in: .min ... .max), radix: 36)
        let answer = try await authorize(
            clientID: target.clientID,
            redirectURI: redirectURI.string,
            state: state,
            scopes: scopes,
            for: "a fresh code"
        )
        if let code = code(answer, redirectURI: redirectURI.string, state: state) { return code }
        switch Blame.authorizationCode(answer, probes: Blame.AuthorizationProbes(), code: { _ in nil }) {
        case .broke(let rule, let why):
            if !Blame.judgedEverywhere.contains(rule) { context.ledger.record(rule, .fail("a later valid request: \(why)")) }
            throw CodeShortfall(state: .brokeRule(rule, "the authorization endpoint gave no code: \(why)"))
        case .couldNotRun(_, let why), .met(let why), .brokeEarlier(_, let why):
            throw CodeShortfall(state: .nothingToJudge("the authorization endpoint gave no code: \(why)"))
        }
    }

    func verdict(_ answer: AuthorizationAnswer, redirectURI: String, state: String) -> FlipResultVerdict? {
        answer.location.map { FlipResultChecker(redirectURI: redirectURI, state: state).check($0) }
    }

    /// The code `answer` carries in its redirect's query, when it carries one usable.
    func code(_ answer: AuthorizationAnswer, redirectURI: String, state: String) -> String? {
        guard answer.redirected, let location = answer.location, LocationJudge.responseProblem(location) == nil,
            case .code(let code)? = verdict(answer, redirectURI: redirectURI, state: state)?.outcome
        else { return nil }
        return code
    }
}
