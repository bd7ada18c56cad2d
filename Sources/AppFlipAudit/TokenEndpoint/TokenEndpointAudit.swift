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
    /// How many of the independent checks may have a request in flight at once (`--concurrency`).
    public var concurrency: Int = Auditor.defaultConcurrency
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
        _ = try await probe(codes: codes)
        Judges.run(context)
        return VerdictBuilder.results(AuditCatalogue.checks(of: .tokenEndpoint), context.ledger.snapshot())
    }

    /// Every probe, the precondition first, and `partner.scope` when its sources are given. The checks after
    /// the precondition each spend material of their own, so they run at once, at most `concurrency` at a
    /// time. Returns the client the later probes use, nil when the credentials were refused.
    func probe(codes: any AuditCodeSource, partnerScope: PartnerScopeSources? = nil) async throws(AuditUnreachable) -> Client? {
        markOptions()
        guard let method = try await clientAuthentication(codes) else {
            try await probesWithoutCodes(target.clientAuth)
            return nil
        }
        let google = client(method.method)
        guard let tokens = method.tokens else {
            try await Self.concurrently(
                [
                    { try await self.wrongSecret(codes, [method.method], google) },
                    { try await self.unknownClient(codes, [method.method], google) },
                    { try await self.probesWithoutCodes(method.method) },
                ],
                limit: concurrency
            )
            return google
        }
        let resourceWorks = try await resourceCheck(tokens)
        let revoked = RevokedAccess()
        var probes: [Work] = [
            {
                try await self.refreshChain(from: tokens, google, resourceWorks: resourceWorks)
                try await self.invalidRefresh(codes, google)
            },
            { try await self.rotation(codes, google) },
            { try await self.singleUse(codes, google, resourceWorks: resourceWorks) },
            { try await self.concurrentReplay(codes, google) },
            { try await self.redirectBinding(codes, google) },
            { try await self.invalidCode(codes, google) },
            { try await self.wrongSecret(codes, method.accepted, google) },
            { try await self.unknownClient(codes, method.accepted, google) },
            { try await self.clientBinding(codes, google) },
            { try await self.revokeUnknown(google) },
            { try await self.basicChallenge() },
        ]
        probes += revocations(codes, google, resourceWorks: resourceWorks, into: revoked)
        if target.codeExpiry {
            probes.append { try await self.codeExpiry(codes, google) }
            probes.append { try await self.refreshAfterExpiry(codes, google, resourceWorks: resourceWorks) }
        }
        if let partnerScope { probes.append { try await self.scopeFidelity(partnerScope, google) } }
        try await Self.concurrently(probes, limit: concurrency)
        try await resourceRefusal(revoked: revoked.answers, issued: tokens)
        return google
    }

    /// When no source yields a code: the checks whose inputs need none still run, on the configured client
    /// authentication — a refresh token never issued, revoking one, the resource without a token and with one
    /// never issued, and how those errors and challenges are written. The rest are skipped by their need `code`.
    func probeWithoutCodes() async throws(AuditUnreachable) {
        markOptions()
        try await probesWithoutCodes(target.clientAuth)
    }

    /// The probes that need no code of their own: a made-up refresh token, a made-up revocation, the challenges.
    private func probesWithoutCodes(_ method: ClientAuthMethod) async throws(AuditUnreachable) {
        let google = client(method)
        try await invalidRefresh(nil, google)
        try await revokeUnknown(google)
        try await basicChallenge()
        try await resourceRefusal(revoked: [], issued: nil)
    }

    /// One independent probe of the token endpoint; it throws only ``AuditUnreachable``.
    typealias Work = @Sendable () async throws -> Void

    /// Runs `probes` at once, at most `limit` at a time; the first that cannot reach the endpoint ends them all.
    static func concurrently(_ probes: [Work], limit: Int) async throws(AuditUnreachable) {
        _ = try await BoundedProbes.run(probes, limit: limit) { probe throws(AuditUnreachable) in
            do {
                try await probe()
            } catch let error as AuditUnreachable {
                throw error
            } catch {
                throw AuditUnreachable("\(error)")
            }
        }
    }

    /// The options the checks need, given or not.
    private func markOptions() {
        let ledger = context.ledger
        ledger.set(.resource, target.resourceURL == nil ? .notGiven("no resource: give --resource-url") : .met)
        ledger.set(.revocationEndpoint, target.revokeURL == nil ? .notGiven("no revocation endpoint: give --revoke-url") : .met)
        ledger.set(.slow, target.codeExpiry ? .met : .notGiven("slow (over 10 minutes): give --slow"))
        ledger.set(
            .secondClient,
            target.secondClient == nil ? .notGiven("no second client: give --second-client-id and --second-client-secret-file") : .met
        )
    }
}
