public import AppFlipCore
import AppFlipGoogle
public import AppFlipHTTPClient
public import AsyncHTTPClient

/// The token-endpoint checks (RFC 6749 §2.3.1, §4.1.3, §5, §6, §10.5; RFC 6750 §3; RFC 7009; Google's
/// account-linking validation tool). First the precondition: which client authentication works, each method
/// on a fresh code; every later request uses one that does. Then every check on its own fresh material: its
/// own code, its own tokens, shown usable right before the action whose effect it judges. The judges read
/// every answer of the run at the end (the shape of every token response, every refusal, every challenge).
/// No code, token or secret reaches a result: lengths and fingerprints only.
public struct TokenEndpointAudit: Sendable {
    /// The endpoint and client.
    public var target: TokenEndpointTarget
    /// The redirect URI the codes are issued for; another of the 12 is `token.code-redirect-binding`'s.
    public var redirectURI: AppFlipRedirectURI
    /// How long a code must age for `token.code-expiry`: just over RFC 6749's 10 minutes.
    public var codeExpiryWait: Duration = .seconds(601)
    /// The bounds of each request: `OutboundBounds.oauth()` unless a test shortens them.
    public var bounds: OutboundBounds
    let httpClient: HTTPClient
    let context: AuditContext

    /// An audit of `target` with codes issued for `redirectURI`; `httpClient` must not follow redirects.
    public init(target: TokenEndpointTarget, redirectURI: AppFlipRedirectURI, httpClient: HTTPClient, bounds: OutboundBounds = .oauth()) {
        self.init(target: target, redirectURI: redirectURI, httpClient: httpClient, bounds: bounds, context: AuditContext())
    }

    init(target: TokenEndpointTarget, redirectURI: AppFlipRedirectURI, httpClient: HTTPClient, bounds: OutboundBounds, context: AuditContext) {
        self.target = target
        self.redirectURI = redirectURI
        self.httpClient = httpClient
        self.bounds = bounds
        self.context = context
    }

    /// Runs the token-endpoint checks alone on the codes of `codes`, and judges them. Throws only when the
    /// endpoint or the code source cannot be reached.
    public func run(codes: any AuditCodeSource) async throws(AuditUnreachable) -> [AuditResult] {
        context.ledger.establish(.tokenEndpoint)
        context.ledger.establish(.code)
        try await probe(codes: codes)
        Judges.run(context)
        return VerdictBuilder.results(AuditCatalogue.checks(of: .tokenEndpoint), context.ledger.snapshot())
    }

    /// Every probe, the precondition first, and `partner.scope` when its sources are given.
    func probe(codes: any AuditCodeSource, partnerScope: PartnerScopeSources? = nil) async throws(AuditUnreachable) {
        markOptions()
        guard let method = try await clientAuthentication(codes) else {
            try await probesWithoutTokens(target.clientAuth, issued: nil)
            return
        }
        let google = client(method.method)
        if let tokens = method.tokens {
            let resourceWorks = try await resourceCheck(tokens)
            try await refreshChain(from: tokens, google, resourceWorks: resourceWorks)
            try await rotation(codes, google)
            try await singleUse(codes, google, resourceWorks: resourceWorks)
            try await redirectBinding(codes, google)
            let revokedRefusals = try await revocation(codes, google, resourceWorks: resourceWorks)
            try await codeExpiry(codes, google)
            if let partnerScope { try await scopeFidelity(partnerScope, google) }
            try await wrongSecret(codes, method.accepted)
            try await unknownClient(codes, method.accepted)
            try await probesWithoutTokens(method.method, issued: tokens, revoked: revokedRefusals)
        } else {
            try await wrongSecret(codes, [method.method])
            try await unknownClient(codes, [method.method])
            try await probesWithoutTokens(method.method, issued: nil)
        }
    }

    /// When no source yields a code: the checks whose inputs need none still run, on the configured client
    /// authentication — a refresh token never issued, revoking one, the resource without a token and with one
    /// never issued, and how those errors and challenges are written. The rest are skipped by their need `code`.
    func probeWithoutCodes() async throws(AuditUnreachable) {
        markOptions()
        try await probesWithoutTokens(target.clientAuth, issued: nil)
    }

    /// The probes that need no code of their own: made-up refresh tokens, a made-up revocation, the challenges.
    private func probesWithoutTokens(
        _ method: ClientAuthMethod,
        issued: TokenAnswer?,
        revoked: [(String, ResourceAnswer)] = []
    ) async throws(AuditUnreachable) {
        let google = client(method)
        try await invalidRefresh(google, issued: issued)
        try await revokeUnknown(google)
        try await basicChallenge()
        try await resourceRefusal(revoked: revoked)
    }

    /// The options the checks need, given or not.
    private func markOptions() {
        let ledger = context.ledger
        ledger.set(.resource, target.resourceURL == nil ? .notGiven("no resource: give --resource-url") : .met)
        ledger.set(.revocationEndpoint, target.revokeURL == nil ? .notGiven("no revocation endpoint: give --revoke-url") : .met)
        ledger.set(.slow, target.codeExpiry ? .met : .notGiven("slow (over 10 minutes): give --slow"))
    }
}
