import AppFlipCore

/// RFC 7009, which Google follows when a user unlinks: `token.revoke` on a code of its own, its refresh
/// token shown working right before it is revoked; `token.revoke-unknown` with a token never issued.
extension TokenEndpointAudit {
    /// `token.revoke`; returns the resource's answers to the revoked grant's access tokens that it refused,
    /// for `token.resource-refusal`.
    func revocation(_ codes: any AuditCodeSource, _ google: Client, resourceWorks: Bool) async throws(AuditUnreachable) -> [(String, ResourceAnswer)]
    {
        let check = CheckSpec.tokenRevoke
        guard let revokeURL = target.revokeURL, let tokens = try await ownTokens(codes, google, for: check), let original = tokens.refreshToken else {
            return []
        }
        let before = try await refresh(original, google, for: "token.revoke: its refresh token before revoking")
        var evidence = ["before revoking, its refresh token: \(before)"]
        guard let usable = try await usableRefreshToken(after: before, presented: original, google, &evidence, for: check) else {
            context.ledger.set(
                .refresh,
                .brokeRule(
                    .tokenRefresh,
                    "no refresh token of its own could be shown usable before revoking (token.refresh and token.refresh-chain judge refreshing)"
                ),
                for: check
            )
            context.ledger.record(check, .note(evidence))
            return []
        }
        var accessTokens: [String] = []
        for token in [tokens.accessToken, before.accessToken, usable.access].compactMap({ $0 }) where !accessTokens.contains(token) {
            accessTokens.append(token)
        }
        let revoked = try await revoke(usable.token, at: revokeURL, google, for: "token.revoke: its refresh token")
        evidence.append("POST \(revokeURL) token=\(Self.redacted("refresh_token", usable.token)), token_type_hint=refresh_token: \(revoked)")
        guard revoked.status == 200 else {
            context.ledger.record(check, .fail("revoking a valid refresh token got \(revoked.summary), not HTTP 200", evidence: evidence))
            return []
        }
        return try await afterRevoking(usable.token, accessTokens: accessTokens, google, resourceWorks: resourceWorks, evidence: evidence)
    }

    /// What is left of a revoked grant: its refresh token must not refresh (RFC 7009 §2.1's MUST), its access
    /// tokens should no longer open the resource (its SHOULD).
    private func afterRevoking(
        _ refreshToken: String,
        accessTokens: [String],
        _ google: Client,
        resourceWorks: Bool,
        evidence: [String]
    ) async throws(AuditUnreachable) -> [(String, ResourceAnswer)] {
        var evidence = evidence
        let after = try await refresh(refreshToken, google, for: "token.revoke: the revoked refresh token")
        evidence.append("after revoking, the refresh token: \(after)")
        var refusals: [(String, ResourceAnswer)] = []
        var aliveAccess = 0
        if resourceWorks {
            for (index, access) in accessTokens.enumerated() {
                guard let answer = try await resource(access, for: "token.revoke: access token \(index + 1) of the revoked grant") else { continue }
                evidence.append("after revoking, access token \(index + 1) at the resource: \(answer)")
                if answer.opened { aliveAccess += 1 } else { refusals.append(("an access token of a revoked refresh token", answer)) }
            }
        }
        let finding: Finding
        if after.issuedTokens {
            finding = .fail(
                "the revoked refresh token still refreshes: a user who unlinks stays linked (RFC 7009 §2.1 MUST invalidate it)",
                evidence: evidence
            )
        } else if aliveAccess > 0 {
            finding = .warn(
                "the refresh token is dead, but \(aliveAccess) of \(accessTokens.count) of its access tokens still open the resource (RFC 7009 §2.1: SHOULD be invalidated)",
                evidence: evidence
            )
        } else {
            finding = .held(
                "the revoked refresh token got \(after.summary)" + (resourceWorks ? " and its access tokens no longer open the resource" : ""),
                evidence: evidence
            )
        }
        context.ledger.record(.tokenRevoke, finding)
        return refusals
    }

    func revokeUnknown(_ google: Client) async throws(AuditUnreachable) {
        guard let revokeURL = target.revokeURL else { return }
        let token = Self.madeUpToken()
        let answer = try await revoke(token, at: revokeURL, google, for: "token.revoke-unknown: a token never issued")
        let evidence = ["POST \(revokeURL) token=\(Self.redacted("refresh_token", token)) (never issued): \(answer)"]
        context.ledger.record(
            .tokenRevokeUnknown,
            answer.status == 200
                ? .held("a token never issued: HTTP 200", evidence: evidence)
                : .fail("revoking a token never issued got \(answer.summary), not HTTP 200", evidence: evidence)
        )
    }
}
