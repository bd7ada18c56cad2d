public import AppFlipCore
import AppFlipGoogle
public import AppFlipHTTPClient
public import AsyncHTTPClient

/// The token-endpoint checks (RFC 6749 §2.3.1, §4.1.3, §5, §6, §10.5; RFC 6750 §3; RFC 7009; Google's
/// account-linking validation tool). First the precondition: which client authentication works, each method
/// on a fresh code; every later request uses one that does. Then every check on its own fresh material: its
/// own code, its own tokens, shown usable right before the action whose effect it judges. No code, token or
/// secret reaches a result: lengths and fingerprints only.
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

    /// An audit of `target` with codes issued for `redirectURI`; `httpClient` must not follow redirects.
    public init(target: TokenEndpointTarget, redirectURI: AppFlipRedirectURI, httpClient: HTTPClient, bounds: OutboundBounds = .oauth()) {
        self.target = target
        self.redirectURI = redirectURI
        self.httpClient = httpClient
        self.bounds = bounds
    }

    /// The error answers of the run, which `token.error-format` and `token.error-fields` judge, each named by
    /// what was sent; only requests Google can send count (not the other client authentication method).
    struct ErrorAnswers {
        var token: [(String, TokenAnswer)] = []
        var revocation: [(String, TokenAnswer)] = []

        mutating func note(_ label: String, _ answer: TokenAnswer) {
            if !answer.issuedTokens { token.append((label, answer)) }
        }
    }

    /// Runs every token-endpoint check, and `partner.scope` when its sources are given. Throws only when the
    /// endpoint or the code source cannot be reached.
    public func run(codes: any AuditCodeSource, partnerScope: PartnerScopeSources? = nil) async throws(AuditUnreachable) -> [AuditResult] {
        var errors = ErrorAnswers()
        let authentication = try await clientAuthentication(codes)
        var results = [authentication.result]
        guard let method = authentication.method else {
            let reason = "needs token.client-auth: the client's credentials were refused"
            let skipped = AuditCheck.allCases.filter {
                ($0.target == .tokenEndpoint && $0 != .tokenClientAuth) || (partnerScope != nil && $0 == .partnerScope)
            }
            return results + skipped.map { AuditResult($0, .skipped, reason) }
        }
        let google = client(method)
        for (label, answer) in authentication.errors { errors.note(label, answer) }

        var resourceWorks = false
        var revokedRefusals: [(String, ResourceAnswer)] = []
        var firstTokens: TokenAnswer?
        if let tokens = authentication.tokens {
            results.append(AuditResult(.tokenExchange, .pass, "tokens issued (\(method.name))", evidence: authentication.exchangeEvidence))
            results += Self.shape(tokens)
            let (resourceResult, works) = try await resourceCheck(tokens)
            resourceWorks = works
            results.append(resourceResult)
            results += try await refreshChain(from: tokens, google, resourceWorks: resourceWorks, &errors)
            results.append(try await rotation(codes, google))
            results.append(try await singleUse(codes, google, resourceWorks: resourceWorks, &errors))
            results.append(try await redirectBinding(codes, google, &errors))
            firstTokens = tokens
            let revocation = try await revocation(codes, google, resourceWorks: resourceWorks, &errors)
            results += revocation.results
            revokedRefusals = revocation.refusals
            results.append(try await codeExpiry(codes, google, &errors))
            if let partnerScope { results.append(try await scopeFidelity(partnerScope, google)) }
        } else {
            results.append(
                AuditResult(
                    .tokenExchange,
                    .fail,
                    "a fresh code got \(authentication.configuredAnswer.summary), not tokens",
                    evidence: authentication.exchangeEvidence
                )
            )
            let reason = "needs token.exchange: no code got tokens"
            let dependants: [AuditCheck] = [
                .tokenJSON, .tokenNoStore, .tokenBearer, .tokenOpaque, .tokenExpiresIn, .tokenRefreshIssued, .tokenCodeSingleUse,
                .tokenCodeRedirectBinding, .tokenRefresh, .tokenRefreshChain, .tokenRefreshRotation, .tokenResource, .tokenRevoke,
                .tokenCodeExpiry,
            ]
            results += (dependants + (partnerScope == nil ? [] : [.partnerScope])).map { AuditResult($0, .skipped, reason) }
            results.append(try await revokeUnknown(google, &errors))
        }
        let methods = authentication.accepted.isEmpty ? [method] : authentication.accepted
        results.append(try await wrongSecret(codes, methods, &errors))
        results.append(try await unknownClient(codes, methods, &errors))
        let refreshGrantRefused = errors.token.contains { $0.0 == "refresh 1" && $0.1.error == "unsupported_grant_type" }
        results.append(try await invalidRefresh(google, issued: firstTokens, refreshGrantRefused: refreshGrantRefused, &errors))
        results.append(try await basicChallenge(basicAccepted: authentication.basicAccepted))
        results.append(try await resourceRefusal(revoked: revokedRefusals))
        results.append(Self.errorFormat(errors.token + errors.revocation))
        results.append(Self.errorFields(errors))
        return results
    }

    /// When no source yields a code (`reason` says why, once): the checks that need none still run on the
    /// configured client authentication — a refresh token never issued, revoking one, the resource without a
    /// token and with one never issued, and how those errors are written — and the rest are skipped.
    public func runWithoutCodes(_ reason: String) async throws(AuditUnreachable) -> [AuditResult] {
        var errors = ErrorAnswers()
        let google = client(target.clientAuth)
        var results = [try await invalidRefresh(google, issued: nil, &errors)]
        results.append(try await revokeUnknown(google, &errors))
        results.append(try await resourceRefusal(revoked: []))
        results.append(Self.errorFormat(errors.token + errors.revocation))
        results.append(Self.errorFields(errors))
        let ran = Set(results.map(\.check))
        return results + AuditCheck.allCases.filter { $0.target == .tokenEndpoint && !ran.contains($0) }.map { AuditResult($0, .skipped, reason) }
    }
}
