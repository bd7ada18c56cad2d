import AppFlipCore

/// RFC 7009, which Google follows when a user unlinks: `token.revoke` on a code of its own, its refresh
/// token shown working right before it is revoked; `token.revoke-unknown` with a token never issued.
extension TokenEndpointAudit {
    struct RevocationOutcome {
        var results: [AuditResult]
        /// The resource's answers to the revoked grant's access tokens, for `token.resource-refusal`.
        var refusals: [(String, ResourceAnswer)]
    }

    func revocation(
        _ codes: any AuditCodeSource,
        _ google: Client,
        resourceWorks: Bool,
        _ errors: inout ErrorAnswers
    ) async throws(AuditUnreachable) -> RevocationOutcome {
        guard let revokeURL = target.revokeURL else {
            return RevocationOutcome(results: [AuditResult(.tokenRevoke, .skipped, "no revocation endpoint: give --revoke-url")], refusals: [])
                .adding(try await revokeUnknown(google, &errors))
        }
        let code = try await freshCode(codes)
        let tokens = try await exchange(code, google)
        var evidence = ["exchange of its own \(Self.redacted("code", code)): \(tokens)"]
        guard tokens.issuedTokens, let original = tokens.refreshToken else {
            return RevocationOutcome(
                results: [AuditResult(.tokenRevoke, .skipped, "its own code got \(tokens.summary), no refresh token", evidence: evidence)],
                refusals: []
            ).adding(try await revokeUnknown(google, &errors))
        }
        let before = try await refresh(original, google)
        evidence.append("before revoking, its refresh token: \(before)")
        guard let usable = try await usableRefreshToken(after: before, presented: original, google, &evidence) else {
            return RevocationOutcome(
                results: [
                    AuditResult(
                        .tokenRevoke,
                        .skipped,
                        "no refresh token of its own could be shown usable before revoking (token.refresh and token.refresh-chain judge refreshing)",
                        evidence: evidence
                    )
                ],
                refusals: []
            ).adding(try await revokeUnknown(google, &errors))
        }
        let current = usable.token
        var accessTokens: [String] = []
        for token in [tokens.accessToken, before.accessToken, usable.access].compactMap({ $0 }) where !accessTokens.contains(token) {
            accessTokens.append(token)
        }
        let revoked = try await revoke(current, at: revokeURL, google)
        evidence.append("POST \(revokeURL) token=\(Self.redacted("refresh_token", current)), token_type_hint=refresh_token: \(revoked)")
        if !revoked.issuedTokens && revoked.error != nil { errors.revocation.append(("revocation of a refresh token", revoked)) }
        guard revoked.status == 200 else {
            return RevocationOutcome(
                results: [
                    AuditResult(.tokenRevoke, .fail, "revoking a valid refresh token got \(revoked.summary), not HTTP 200", evidence: evidence)
                ],
                refusals: []
            ).adding(try await revokeUnknown(google, &errors))
        }
        let after = try await refresh(current, google)
        evidence.append("after revoking, the refresh token: \(after)")
        var refusals: [(String, ResourceAnswer)] = []
        var aliveAccess = 0
        if resourceWorks {
            for (index, access) in accessTokens.enumerated() {
                guard let answer = try await resource(access) else { continue }
                evidence.append("after revoking, access token \(index + 1) at the resource: \(answer)")
                if answer.opened { aliveAccess += 1 } else { refusals.append(("an access token of a revoked refresh token", answer)) }
            }
        }
        let result: AuditResult
        if after.issuedTokens {
            result = AuditResult(
                .tokenRevoke,
                .fail,
                "the revoked refresh token still refreshes: a user who unlinks stays linked (RFC 7009 §2.1 MUST invalidate it)",
                evidence: evidence
            )
        } else if aliveAccess > 0 {
            result = AuditResult(
                .tokenRevoke,
                .warning,
                "the refresh token is dead, but \(aliveAccess) of \(accessTokens.count) of its access tokens still open the resource (RFC 7009 §2.1: SHOULD be invalidated)",
                evidence: evidence
            )
        } else {
            result = AuditResult(
                .tokenRevoke,
                .pass,
                "the revoked refresh token got \(after.summary)" + (resourceWorks ? " and its access tokens no longer open the resource" : ""),
                evidence: evidence
            )
        }
        return RevocationOutcome(results: [result], refusals: refusals).adding(try await revokeUnknown(google, &errors))
    }

    func revokeUnknown(_ google: Client, _ errors: inout ErrorAnswers) async throws(AuditUnreachable) -> AuditResult {
        guard let revokeURL = target.revokeURL else { return AuditResult(.tokenRevokeUnknown, .skipped, "no revocation endpoint: give --revoke-url") }
        let token = Self.madeUpToken()
        let answer = try await revoke(token, at: revokeURL, google)
        let evidence = ["POST \(revokeURL) token=\(Self.redacted("refresh_token", token)) (never issued): \(answer)"]
        if answer.status == 200 { return AuditResult(.tokenRevokeUnknown, .pass, "a token never issued: HTTP 200", evidence: evidence) }
        if answer.error != nil { errors.revocation.append(("revocation of a token never issued", answer)) }
        return AuditResult(.tokenRevokeUnknown, .fail, "revoking a token never issued got \(answer.summary), not HTTP 200", evidence: evidence)
    }
}

extension TokenEndpointAudit.RevocationOutcome {
    func adding(_ result: AuditResult) -> Self {
        Self(results: results + [result], refusals: refusals)
    }
}
