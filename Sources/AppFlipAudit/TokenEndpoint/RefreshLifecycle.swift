import AppFlipCore

/// The refresh lifecycle as Google lives it: `token.refresh` and `token.refresh-chain` on the first
/// exchange's refresh token, refreshed three times in a row, each time with the refresh token the previous
/// answer gave (or the one presented, when none was given); `token.refresh-rotation` on a code of its own.
extension TokenEndpointAudit {
    static let chainLength = 3

    func refreshChain(
        from tokens: TokenAnswer,
        _ google: Client,
        resourceWorks: Bool,
        _ errors: inout ErrorAnswers
    ) async throws(AuditUnreachable) -> [AuditResult] {
        guard var presented = tokens.refreshToken else {
            let reason = "no refresh token was issued (token.refresh-issued)"
            return [AuditResult(.tokenRefresh, .skipped, reason), AuditResult(.tokenRefreshChain, .skipped, reason)]
        }
        var previousAccess = tokens.accessToken
        var chain: [String] = []
        var refreshResult: AuditResult?
        var resourceProblems: [String] = []
        for step in 1...Self.chainLength {
            let answer = try await refresh(presented, google)
            var line = "refresh \(step) with \(Self.redacted("refresh_token", presented)): \(answer)"
            guard answer.issuedTokens, let access = answer.accessToken else {
                chain.append(line)
                errors.note("refresh \(step)", answer)
                guard let refreshResult else {
                    return [
                        AuditResult(.tokenRefresh, .fail, "a refresh got \(answer.summary), not a new access token", evidence: chain),
                        AuditResult(.tokenRefreshChain, .skipped, "needs token.refresh"),
                    ]
                }
                let unlinked = answer.error == "invalid_grant" ? "linked users are unlinked at refresh \(step)" : "refresh \(step) fails"
                return [
                    refreshResult,
                    AuditResult(
                        .tokenRefreshChain,
                        .fail,
                        "\(unlinked): it got \(answer.summary) with the refresh token the previous answer left current",
                        evidence: chain
                    ),
                ]
            }
            if step == 1 {
                refreshResult =
                    access == previousAccess
                    ? AuditResult(.tokenRefresh, .fail, "the refresh returned the same access token", evidence: [line])
                    : AuditResult(
                        .tokenRefresh,
                        .pass,
                        answer.refreshToken == nil ? "a new access token (no new refresh token: allowed, RFC 6749 §6)" : "a new access token",
                        evidence: [line]
                    )
            }
            if resourceWorks, let opened = try await resource(access) {
                line += "; its access token at the resource: \(opened)"
                if !opened.opened { resourceProblems.append("the access token of refresh \(step) got \(opened) at the resource") }
            }
            chain.append(line)
            presented = answer.refreshToken ?? presented
            previousAccess = access
        }
        let chainResult =
            resourceProblems.isEmpty
            ? AuditResult(
                .tokenRefreshChain,
                .pass,
                "\(Self.chainLength) refreshes in a row, each with the current refresh token"
                    + (resourceWorks ? ", each access token opened the resource" : ""),
                evidence: chain
            )
            : AuditResult(.tokenRefreshChain, .fail, resourceProblems.joined(separator: "; "), evidence: chain)
        return [refreshResult!, chainResult]
    }

    /// `token.refresh-rotation` on its own code: when a refresh rotates the refresh token, the previous one
    /// is presented again before its successor is used (a lost answer) and must work, then the newest.
    func rotation(_ codes: any AuditCodeSource, _ google: Client) async throws(AuditUnreachable) -> AuditResult {
        let code = try await freshCode(codes)
        let tokens = try await exchange(code, google)
        guard tokens.issuedTokens, let original = tokens.refreshToken else {
            return AuditResult(.tokenRefreshRotation, .skipped, "its own code got \(tokens.summary), no refresh token")
        }
        let refreshed = try await refresh(original, google)
        var evidence = ["refresh with \(Self.redacted("refresh_token", original)): \(refreshed)"]
        guard refreshed.issuedTokens else {
            return AuditResult(
                .tokenRefreshRotation,
                .skipped,
                "the refresh got \(refreshed.summary) (token.refresh judges refreshing)",
                evidence: evidence
            )
        }
        guard let successor = refreshed.refreshToken, successor != original else {
            return AuditResult(
                .tokenRefreshRotation,
                .skipped,
                "nothing rotates: the refresh answer carries no new refresh token (token.refresh-chain shows whether the presented one keeps working)",
                evidence: evidence
            )
        }
        // Rotated: the previous token must still work while its successor is unused (a lost answer).
        let previousAgain = try await refresh(original, google)
        evidence.append("the rotated-out refresh token again, its successor unused: \(previousAgain)")
        guard previousAgain.issuedTokens else {
            return AuditResult(
                .tokenRefreshRotation,
                .fail,
                "the previous refresh token got \(previousAgain.summary) before its successor was used: one lost refresh answer unlinks the user",
                evidence: evidence
            )
        }
        let next = try await refresh(previousAgain.refreshToken ?? successor, google)
        evidence.append("the newest refresh token: \(next)")
        return next.issuedTokens
            ? AuditResult(.tokenRefreshRotation, .pass, "the previous refresh token worked until its successor was used", evidence: evidence)
            : AuditResult(.tokenRefreshRotation, .fail, "the newest refresh token got \(next.summary)", evidence: evidence)
    }
}

extension TokenEndpointAudit {
    /// A refresh token shown usable right now, after `answer` refreshed `presented`, and the newest access
    /// token: the successor the answer gave (just issued), else `presented` once it has refreshed again.
    /// Nil when the presented token was retired without a successor: what happens to it later is then no
    /// effect of the action a check judges.
    func usableRefreshToken(
        after answer: TokenAnswer,
        presented: String,
        _ google: Client,
        _ evidence: inout [String]
    ) async throws(AuditUnreachable) -> (token: String, access: String?)? {
        guard answer.issuedTokens else { return nil }
        if let successor = answer.refreshToken, successor != presented { return (successor, answer.accessToken) }
        let again = try await refresh(presented, google)
        evidence.append("no new refresh token was given, so the presented one again: \(again)")
        guard again.issuedTokens else { return nil }
        return (again.refreshToken ?? presented, again.accessToken ?? answer.accessToken)
    }
}
