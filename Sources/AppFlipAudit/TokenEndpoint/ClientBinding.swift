import AppFlipCore
import AppFlipGoogle

/// A second client registered at the partner (`--second-client-id`, `--second-client-secret-file`): Google's
/// codes and refresh tokens are bound to Google's client (RFC 6749 §4.1.3, §6, §10.5), so the other client
/// must be refused both, and must not revoke Google's grant (RFC 7009 §2.1). First, the second client's
/// credentials are shown accepted (a made-up refresh token answered anything but `invalid_client`): refused
/// by both methods, they are the audit's input, and `token.code-client-binding` could not run.
extension TokenEndpointAudit {
    func clientBinding(_ codes: any AuditCodeSource, _ google: Client) async throws(AuditUnreachable) {
        guard let other = try await secondClient(like: google) else { return }
        try await Self.concurrently(
            [
                { try await self.codeClientBinding(codes, google, other) },
                { try await self.refreshClientBinding(codes, google, other) },
            ],
            limit: concurrency
        )
    }

    /// The second client, authenticated by Google's working method or else the other; nil when the
    /// credentials were refused both ways or the endpoint is down (`second-client-auth` could not run).
    private func secondClient(like google: Client) async throws(AuditUnreachable) -> Client? {
        guard let second = target.secondClient else { return nil }
        let methods = [google.method ?? target.clientAuth, (google.method ?? target.clientAuth).other]
        var answers: [(method: ClientAuthMethod, answer: TokenAnswer)] = []
        for method in methods {
            var client = Client(id: second.id, secret: second.secret, method: method)
            client.googleSends = method == google.method
            let answer = try await refresh(
                Self.madeUpToken(),
                client,
                for: "token.code-client-binding: the second client's credentials (\(method.name)), with a made-up refresh token"
            )
            answers.append((method, answer))
            switch Blame.secondClient(answers) {
            case .met(let why):
                context.ledger.establish(.secondClientAuth)
                context.ledger.record(.tokenCodeClientBinding, .note([why]))
                client.googleSends = true
                return client
            case .couldNotRun(let cause, let why) where cause == .serverError || method != methods[0]:
                context.ledger.set(.secondClientAuth, .couldNotRun(cause, why))
                return nil
            default:
                continue
            }
        }
        return nil
    }

    /// `token.code-client-binding`: a code of Google's own, presented by the second client, gets HTTP 400
    /// invalid_grant; then Google's client exchanges it, for the evidence.
    private func codeClientBinding(_ codes: any AuditCodeSource, _ google: Client, _ other: Client) async throws(AuditUnreachable) {
        let check = CheckSpec.tokenCodeClientBinding
        guard let code = try await freshCode(codes, for: check) else { return }
        let answer = try await exchange(code, other, for: "token.code-client-binding: Google's code presented by the second client")
        var evidence = ["Google's \(Self.redacted("code", code)) presented by the second client \(other.id): \(answer)"]
        let own = try await exchange(code, google, for: "token.code-client-binding: the code, then by Google's client")
        evidence.append("then by Google's client: \(own)")
        context.ledger.record(
            check,
            answer.issuedTokens
                ? .fail("the second client got tokens for Google's code: a code is not bound to the client it was issued to", evidence: evidence)
                : answer.isError("invalid_grant")
                    ? .held("Google's code presented by the second client got invalid_grant", evidence: evidence)
                    : .fail("Google's code presented by the second client got \(answer.summary), not HTTP 400 invalid_grant", evidence: evidence)
        )
    }

    /// `token.refresh-client-binding`: Google's refresh token presented by the second client gets HTTP 400
    /// invalid_grant; revoked by the second client, another of Google's refresh tokens keeps refreshing.
    private func refreshClientBinding(_ codes: any AuditCodeSource, _ google: Client, _ other: Client) async throws(AuditUnreachable) {
        let check = CheckSpec.tokenRefreshClientBinding
        guard let tokens = try await ownTokens(codes, google, for: check), let refreshToken = tokens.refreshToken else { return }
        let answer = try await refresh(
            refreshToken,
            other,
            for: "token.refresh-client-binding: Google's refresh token presented by the second client"
        )
        let evidence = ["Google's \(Self.redacted("refresh_token", refreshToken)) presented by the second client \(other.id): \(answer)"]
        context.ledger.record(
            check,
            answer.issuedTokens
                ? .fail("the second client refreshed Google's refresh token: it is not bound to the client it was issued to", evidence: evidence)
                : answer.isError("invalid_grant")
                    ? .held("Google's refresh token presented by the second client got invalid_grant", evidence: evidence)
                    : .fail(
                        "Google's refresh token presented by the second client got \(answer.summary), not HTTP 400 invalid_grant",
                        evidence: evidence
                    )
        )
        guard let revokeURL = target.revokeURL, let revocable = try await ownTokens(codes, google, for: check),
            let token = revocable.refreshToken
        else { return }
        let revoked = try await revoke(
            token,
            hint: "refresh_token",
            at: revokeURL,
            other,
            for: "token.refresh-client-binding: Google's refresh token revoked by the second client"
        )
        let after = try await refresh(token, google, for: "token.refresh-client-binding: Google's refresh token after the second client revoked it")
        let revocation = [
            "Google's \(Self.redacted("refresh_token", token)) revoked by the second client: \(revoked)",
            "then refreshed by Google's client: \(after)",
        ]
        // RFC 7009 §2.1: the server verifies that the token was issued to the client asking; if not, it refuses.
        context.ledger.record(
            check,
            after.issuedTokens
                ? .held("Google's refresh token, revoked by the second client, still refreshes for Google's client", evidence: revocation)
                : .fail(
                    "the second client revoked Google's refresh token: it then got \(after.summary) (RFC 7009 §2.1: a token of another client is not revoked)",
                    evidence: revocation
                )
        )
    }
}
