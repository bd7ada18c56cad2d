public import AppFlipCore
import AppFlipGoogle
public import AppFlipHTTPClient
public import AsyncHTTPClient
import FoundationEssentials
import NIOCore
import NIOHTTP1

/// The token-endpoint checks (RFC 6749 §4.1.3, §5, §6, §10.5; Google's account-linking validation tool),
/// each on a fresh code from an ``AuditCodeSource``. Requests go out as Google's server sends them; the
/// answers are judged raw (status, Content-Type, Cache-Control, JSON members), never through a client
/// that would smooth them over. No code, token or secret reaches a result: lengths and fingerprints only.
public struct TokenEndpointAudit: Sendable {
    /// The endpoint and client.
    public var target: TokenEndpointTarget
    /// The redirect URI the codes are issued for, and another of the 12 for `token.code-redirect-binding`.
    public var redirectURI: AppFlipRedirectURI
    /// How long a code must age for `token.code-expiry`: just over RFC 6749's 10 minutes.
    public var codeExpiryWait: Duration = .seconds(601)
    /// The bounds of each request: `OutboundBounds.oauth()` unless a test shortens them.
    public var bounds: OutboundBounds
    private let httpClient: HTTPClient

    /// An audit of `target` with codes issued for `redirectURI`; `httpClient` must not follow redirects.
    public init(target: TokenEndpointTarget, redirectURI: AppFlipRedirectURI, httpClient: HTTPClient, bounds: OutboundBounds = .oauth()) {
        self.target = target
        self.redirectURI = redirectURI
        self.httpClient = httpClient
        self.bounds = bounds
    }

    private enum Credentials {
        case post(clientID: String, secret: String)
        case basic(clientID: String, secret: String)
    }

    /// Runs every token-endpoint check. Throws only when the endpoint or the code source cannot be reached.
    public func run(codes: any AuditCodeSource) async throws(AuditUnreachable) -> [AuditResult] {
        var results: [AuditResult] = []
        var errorAnswers: [(String, TokenAnswer)] = []
        let credentials = Credentials.post(clientID: target.clientID, secret: target.clientSecret)

        // token.exchange and the response's shape, on the first code.
        let code = try await freshCode(codes, redirectURI)
        let first = try await exchange(code, redirectURI: redirectURI, credentials)
        let exchangeEvidence = ["POST \(target.url) grant_type=authorization_code, \(Self.redacted("code", code)), client_secret_post: \(first)"]
        guard first.issuedTokens else {
            results.append(AuditResult(.tokenExchange, .fail, "a fresh code got \(Self.summary(first)), not tokens", evidence: exchangeEvidence))
            let skipped: [AuditCheck] = [
                .tokenJSON, .tokenNoStore, .tokenBearer, .tokenOpaque, .tokenExpiresIn, .tokenRefreshIssued, .tokenCodeSingleUse,
                .tokenRefresh, .tokenRefreshRotation, .tokenResource,
            ]
            results += skipped.map { AuditResult($0, .skipped, "no tokens: token.exchange failed") }
            errorAnswers.append(("exchange", first))
            results += try await refusals(codes, credentials, errorAnswers: &errorAnswers)
            results.append(Self.errorFormat(errorAnswers))
            return results
        }
        results.append(AuditResult(.tokenExchange, .pass, "tokens issued", evidence: exchangeEvidence))
        results += Self.shape(first)
        results.append(try await resource(first))

        // token.refresh and token.refresh-rotation on the first tokens; the latest refresh token comes back.
        let (refreshResults, latestRefresh) = try await refreshes(from: first)
        results += refreshResults

        // token.code-single-use: the first code again.
        let replay = try await exchange(code, redirectURI: redirectURI, credentials)
        let replayEvidence = "the same code again: \(replay)"
        if replay.issuedTokens {
            results.append(AuditResult(.tokenCodeSingleUse, .fail, "a replayed code got new tokens", evidence: [replayEvidence]))
        } else if replay.isError("invalid_grant") {
            errorAnswers.append(("replayed code", replay))
            if let latestRefresh {
                let after = try await refresh(latestRefresh)
                let evidence = [replayEvidence, "the first exchange's refresh token after the replay: \(after)"]
                results.append(
                    after.issuedTokens
                        ? AuditResult(
                            .tokenCodeSingleUse,
                            .warning,
                            "the replay got invalid_grant, but the tokens issued for the code still work (RFC 6749 §4.1.2: SHOULD be revoked)",
                            evidence: evidence
                        )
                        : AuditResult(
                            .tokenCodeSingleUse,
                            .pass,
                            "the replay got invalid_grant and the code's tokens were revoked",
                            evidence: evidence
                        )
                )
            } else {
                results.append(AuditResult(.tokenCodeSingleUse, .pass, "the replay got invalid_grant", evidence: [replayEvidence]))
            }
        } else {
            errorAnswers.append(("replayed code", replay))
            results.append(
                AuditResult(
                    .tokenCodeSingleUse,
                    .fail,
                    "a replayed code got \(Self.summary(replay)), not HTTP 400 invalid_grant",
                    evidence: [replayEvidence]
                )
            )
        }

        results += try await refusals(codes, credentials, errorAnswers: &errorAnswers)
        results.append(Self.errorFormat(errorAnswers))
        return results
    }

    /// The checks that need a fresh code each and expect a refusal, plus Basic and the slow expiry check.
    private func refusals(
        _ codes: any AuditCodeSource,
        _ credentials: Credentials,
        errorAnswers: inout [(String, TokenAnswer)]
    ) async throws(AuditUnreachable) -> [AuditResult] {
        var results: [AuditResult] = []
        let other = AppFlipRedirectURI.all.first { $0 != redirectURI && $0.environment == redirectURI.environment }!

        let boundCode = try await freshCode(codes, redirectURI)
        let otherRedirect = try await exchange(boundCode, redirectURI: other, credentials)
        errorAnswers.append(("another redirect_uri", otherRedirect))
        results.append(
            expect(
                .tokenCodeRedirectBinding,
                otherRedirect,
                error: "invalid_grant",
                statuses: [400],
                "a code issued for \(redirectURI) presented with \(other)"
            )
        )

        let secretCode = try await freshCode(codes, redirectURI)
        let wrongSecret = try await exchange(
            secretCode,
            redirectURI: redirectURI,
            .post(clientID: target.clientID, secret: target.clientSecret + "-wrong")
        )
        errorAnswers.append(("wrong secret", wrongSecret))
        results.append(
            expect(.tokenWrongSecret, wrongSecret, error: "invalid_client", statuses: [400, 401], "a valid code with a wrong client secret")
        )

        let clientCode = try await freshCode(codes, redirectURI)
        let unknownClient = try await exchange(
            clientCode,
            redirectURI: redirectURI,
            .post(clientID: target.clientID + "-unknown-to-the-audit", secret: target.clientSecret)
        )
        errorAnswers.append(("unknown client", unknownClient))
        results.append(
            expect(.tokenUnknownClient, unknownClient, error: "invalid_client", statuses: [400, 401], "a valid code with an unknown client_id")
        )

        let bogus = try await refresh(Base64URL.encode((0..<32).map { _ in UInt8.random(in: .min ... .max) }))
        errorAnswers.append(("bogus refresh token", bogus))
        results.append(expect(.tokenInvalidRefresh, bogus, error: "invalid_grant", statuses: [400], "a refresh token the server never issued"))

        if target.basic {
            let basicCode = try await freshCode(codes, redirectURI)
            let answer = try await exchange(basicCode, redirectURI: redirectURI, .basic(clientID: target.clientID, secret: target.clientSecret))
            results.append(
                AuditResult(
                    .tokenExchangeBasic,
                    answer.issuedTokens ? .pass : .fail,
                    answer.issuedTokens ? "tokens issued" : "a fresh code with HTTP Basic got \(Self.summary(answer))",
                    evidence: ["POST \(target.url) with Authorization: Basic: \(answer)"]
                )
            )
        } else {
            results.append(AuditResult(.tokenExchangeBasic, .skipped, "not asked for: give --basic"))
        }

        if target.codeExpiry {
            let oldCode = try await freshCode(codes, redirectURI)
            try? await Task.sleep(for: codeExpiryWait)
            let answer = try await exchange(oldCode, redirectURI: redirectURI, credentials)
            errorAnswers.append(("expired code", answer))
            results.append(expect(.tokenCodeExpiry, answer, error: "invalid_grant", statuses: [400], "a code \(codeExpiryWait) old"))
        } else {
            results.append(AuditResult(.tokenCodeExpiry, .skipped, "slow (over 10 minutes): give --slow"))
        }
        return results
    }

    /// `token.refresh` and `token.refresh-rotation`, starting from the first exchange's tokens; returns the
    /// refresh token that is current at the end.
    private func refreshes(from first: TokenAnswer) async throws(AuditUnreachable) -> ([AuditResult], String?) {
        guard let original = first.refreshToken else {
            return (
                [
                    AuditResult(.tokenRefresh, .skipped, "no refresh token was issued (token.refresh-issued)"),
                    AuditResult(.tokenRefreshRotation, .skipped, "no refresh token was issued"),
                ], nil
            )
        }
        let refreshed = try await refresh(original)
        let evidence = ["grant_type=refresh_token, \(Self.redacted("refresh_token", original)): \(refreshed)"]
        guard refreshed.issuedTokens, let newAccess = refreshed.accessToken else {
            return (
                [
                    AuditResult(.tokenRefresh, .fail, "a refresh got \(Self.summary(refreshed)), not a new access token", evidence: evidence),
                    AuditResult(.tokenRefreshRotation, .skipped, "the refresh failed"),
                ], nil
            )
        }
        let refreshResult =
            newAccess == first.accessToken
            ? AuditResult(.tokenRefresh, .fail, "the refresh returned the same access token", evidence: evidence)
            : AuditResult(
                .tokenRefresh,
                .pass,
                refreshed.refreshToken == nil ? "a new access token (no new refresh token: allowed, RFC 6749 §6)" : "a new access token",
                evidence: evidence
            )
        guard let successor = refreshed.refreshToken, successor != original else {
            return ([refreshResult, AuditResult(.tokenRefreshRotation, .pass, "refresh tokens do not rotate")], original)
        }
        // Rotated: the previous token must still work while its successor is unused (a lost answer).
        let previousAgain = try await refresh(original)
        var rotationEvidence = ["the rotated-out refresh token again, its successor unused: \(previousAgain)"]
        guard previousAgain.issuedTokens else {
            return (
                [
                    refreshResult,
                    AuditResult(
                        .tokenRefreshRotation,
                        .fail,
                        "the previous refresh token got \(Self.summary(previousAgain)) before its successor was used: one lost refresh answer unlinks the user",
                        evidence: rotationEvidence
                    ),
                ], successor
            )
        }
        let latest = previousAgain.refreshToken ?? successor
        let next = try await refresh(latest)
        rotationEvidence.append("the newest refresh token: \(next)")
        let rotation =
            next.issuedTokens
            ? AuditResult(.tokenRefreshRotation, .pass, "the previous refresh token worked until its successor was used", evidence: rotationEvidence)
            : AuditResult(.tokenRefreshRotation, .fail, "the newest refresh token got \(Self.summary(next))", evidence: rotationEvidence)
        return ([refreshResult, rotation], next.refreshToken ?? latest)
    }

    private func resource(_ tokens: TokenAnswer) async throws(AuditUnreachable) -> AuditResult {
        guard let resourceURL = target.resourceURL else { return AuditResult(.tokenResource, .skipped, "no resource: give --resource-url") }
        guard let accessToken = tokens.accessToken else { return AuditResult(.tokenResource, .skipped, "no access token") }
        var request = HTTPClientRequest(url: resourceURL)
        request.headers.add(name: "Authorization", value: "Bearer \(accessToken)")
        let status: UInt
        do {
            status = try await httpClient.exchange(request, bounds: bounds, endpoint: "the resource \(resourceURL)").status.code
        } catch {
            throw AuditUnreachable("\(error)")
        }
        return AuditResult(
            .tokenResource,
            (200..<300).contains(status) ? .pass : .fail,
            "GET \(resourceURL) with the access token: HTTP \(status)",
            evidence: ["Authorization: Bearer \(Self.redacted("access token", accessToken))"]
        )
    }

    /// The shape checks on a 200 answer that issued tokens.
    private static func shape(_ answer: TokenAnswer) -> [AuditResult] {
        var results: [AuditResult] = []
        results.append(
            answer.isJSON
                ? AuditResult(.tokenJSON, .pass, "Content-Type \(answer.contentType ?? "")")
                : AuditResult(.tokenJSON, .fail, "Content-Type \(answer.contentType ?? "absent"), not application/json")
        )
        let noStore = answer.cacheControl?.lowercased().split(separator: ",").contains { $0.filter { $0 != " " } == "no-store" } == true
        results.append(
            noStore
                ? AuditResult(.tokenNoStore, .pass, "Cache-Control: \(answer.cacheControl ?? "")")
                : AuditResult(.tokenNoStore, .warning, "Cache-Control: \(answer.cacheControl ?? "absent"), without no-store")
        )
        let tokenType = answer.string("token_type")
        results.append(
            tokenType?.lowercased() == "bearer"
                ? AuditResult(.tokenBearer, .pass, "token_type \(tokenType ?? "")")
                : AuditResult(.tokenBearer, .fail, "token_type is \(tokenType.map { "\"\($0)\"" } ?? "absent"), not Bearer")
        )
        let accessToken = answer.accessToken ?? ""
        let format = TokenResponse(accessToken: accessToken, tokenType: "Bearer", expiresIn: nil, refreshToken: nil, scope: nil).report
            .accessTokenFormat
        results.append(
            format == .opaque
                ? AuditResult(.tokenOpaque, .pass, "opaque, \(accessToken.utf8.count) bytes")
                : AuditResult(.tokenOpaque, .fail, "the access token is a JWT (three base64url segments), \(accessToken.utf8.count) bytes")
        )
        let expiresIn = answer.members?["expires_in"]
        switch expiresIn {
        case .number(let seconds)? where seconds > 0 && seconds < 1e15 && seconds == seconds.rounded():
            results.append(AuditResult(.tokenExpiresIn, .pass, "expires_in \(Int(seconds))"))
        case nil:
            results.append(AuditResult(.tokenExpiresIn, .fail, "expires_in is missing"))
        case let value?:
            results.append(AuditResult(.tokenExpiresIn, .fail, "expires_in is \(value.compactJSON), not a positive integer"))
        }
        results.append(
            answer.refreshToken != nil
                ? AuditResult(.tokenRefreshIssued, .pass, "refresh_token issued")
                : AuditResult(.tokenRefreshIssued, .fail, "no refresh_token with an access token that expires")
        )
        return results
    }

    /// `token.error-format` over every refusal seen.
    private static func errorFormat(_ answers: [(String, TokenAnswer)]) -> AuditResult {
        let refusals = answers.filter { !$0.1.issuedTokens }
        guard !refusals.isEmpty else { return AuditResult(.tokenErrorFormat, .skipped, "no error answer was seen") }
        let broken = refusals.filter { _, answer in
            !(answer.status == 400 || answer.status == 401) || answer.error == nil || !answer.isJSON
        }
        let evidence = refusals.map { "\($0.0): \($0.1)" + ($0.1.contentType.map { " (\($0))" } ?? "") }
        guard broken.isEmpty else {
            return AuditResult(
                .tokenErrorFormat,
                .fail,
                "\(broken.count) of \(refusals.count) errors are not JSON with error on HTTP 400/401: "
                    + broken.map { "\($0.0) got \(summary($0.1))" }.joined(separator: "; "),
                evidence: evidence
            )
        }
        return AuditResult(.tokenErrorFormat, .pass, "\(refusals.count) errors, each JSON with error on HTTP 400/401", evidence: evidence)
    }

    private func expect(
        _ check: AuditCheck,
        _ answer: TokenAnswer,
        error: String,
        statuses: Set<Int>,
        _ sent: String
    ) -> AuditResult {
        let evidence = ["\(sent): \(answer)"]
        let expected = "HTTP \(statuses.sorted().map(String.init).joined(separator: " or ")) \(error)"
        if answer.isError(error, statuses: statuses) {
            return AuditResult(check, .pass, "\(sent): \(expected)", evidence: evidence)
        }
        return AuditResult(check, .fail, "\(sent) got \(Self.summary(answer)), not \(expected)", evidence: evidence)
    }

    /// A short account of an answer for a reason line.
    static func summary(_ answer: TokenAnswer) -> String {
        if answer.issuedTokens { return "tokens (HTTP \(answer.status))" }
        if let error = answer.error { return "HTTP \(answer.status) error=\(String(error.prefix(64)))" }
        return "HTTP \(answer.status) without an error member" + (answer.members == nil ? " (\(answer.contentType ?? "no Content-Type"))" : "")
    }

    static func redacted(_ name: String, _ secret: String) -> String {
        "\(name) (\(secret.utf8.count) bytes, sha256:\(Fingerprint.of(secret)))"
    }

    private func freshCode(_ codes: any AuditCodeSource, _ redirectURI: AppFlipRedirectURI) async throws(AuditUnreachable) -> String {
        do {
            return try await codes.freshCode(redirectURI: redirectURI)
        } catch let error as AuditUnreachable {
            throw error
        } catch {
            throw AuditUnreachable("no authorization code for the token-endpoint checks: \(error)")
        }
    }

    private func exchange(
        _ code: String,
        redirectURI: AppFlipRedirectURI,
        _ credentials: Credentials
    ) async throws(AuditUnreachable) -> TokenAnswer {
        try await post(
            [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI.string)],
            credentials
        )
    }

    private func refresh(_ refreshToken: String) async throws(AuditUnreachable) -> TokenAnswer {
        try await post(
            [("grant_type", "refresh_token"), ("refresh_token", refreshToken)],
            .post(clientID: target.clientID, secret: target.clientSecret)
        )
    }

    private func post(_ fields: [(name: String, value: String)], _ credentials: Credentials) async throws(AuditUnreachable) -> TokenAnswer {
        var fields = fields
        var request = HTTPClientRequest(url: target.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        switch credentials {
        case .post(let clientID, let secret):
            fields += [("client_id", clientID), ("client_secret", secret)]
        case .basic(let clientID, let secret):
            let pair = PercentEncoding.encodeStrictly(clientID) + ":" + PercentEncoding.encodeStrictly(secret)
            request.headers.add(name: "Authorization", value: "Basic " + Data(pair.utf8).base64EncodedString())
        }
        request.body = .bytes(ByteBuffer(string: FormEncoding.encode(fields)))
        do {
            let response = try await httpClient.exchange(request, bounds: bounds, endpoint: "the token endpoint \(target.url)")
            return TokenAnswer(
                status: Int(response.status.code),
                contentType: response.headers.first(name: "Content-Type"),
                cacheControl: response.headers.first(name: "Cache-Control"),
                body: response.body
            )
        } catch {
            throw AuditUnreachable("\(error)")
        }
    }
}
