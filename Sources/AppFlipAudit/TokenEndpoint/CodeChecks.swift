import AppFlipCore

/// The checks that each spend a fresh code of their own: a replay (`token.code-single-use`) and an old
/// code (`token.code-expiry`).
extension TokenEndpointAudit {
    /// `token.code-single-use`: the code's tokens are shown working right before the replay, so that what
    /// becomes of them after it is the replay's effect.
    func singleUse(
        _ codes: any AuditCodeSource,
        _ google: Client,
        resourceWorks: Bool,
        _ errors: inout ErrorAnswers
    ) async throws(AuditUnreachable) -> AuditResult {
        let code = try await freshCode(codes)
        let first = try await exchange(code, google)
        var evidence = ["exchange of its own \(Self.redacted("code", code)): \(first)"]
        guard first.issuedTokens else {
            return AuditResult(.tokenCodeSingleUse, .skipped, "its own code's exchange got \(first.summary)", evidence: evidence)
        }
        var access = first.accessToken
        var refreshToken = first.refreshToken
        var working: [String] = []
        if let current = refreshToken {
            let before = try await refresh(current, google)
            evidence.append("before the replay, its refresh token: \(before)")
            if let usable = try await usableRefreshToken(after: before, presented: current, google, &evidence) {
                working.append("refresh token")
                refreshToken = usable.token
                access = usable.access ?? access
            } else {
                refreshToken = nil
                access = before.accessToken ?? access
            }
        }
        if resourceWorks, let before = try await resource(access) {
            evidence.append("before the replay, its newest access token at the resource: \(before)")
            if before.opened { working.append("access token") }
        }

        let replay = try await exchange(code, google)
        evidence.append("the same code again: \(replay)")
        errors.note("replayed code", replay)
        if replay.issuedTokens { return AuditResult(.tokenCodeSingleUse, .fail, "a replayed code got new tokens", evidence: evidence) }
        guard replay.isError("invalid_grant") else {
            return AuditResult(.tokenCodeSingleUse, .fail, "a replayed code got \(replay.summary), not HTTP 400 invalid_grant", evidence: evidence)
        }
        guard !working.isEmpty else {
            return AuditResult(
                .tokenCodeSingleUse,
                .pass,
                "the replay got invalid_grant (no token of the code could be shown working before it, so revocation is not judged)",
                evidence: evidence
            )
        }
        var alive: [String] = []
        if working.contains("refresh token"), let refreshToken {
            let after = try await refresh(refreshToken, google)
            evidence.append("after the replay, its refresh token: \(after)")
            if after.issuedTokens { alive.append("refresh token") }
        }
        if working.contains("access token"), let after = try await resource(access) {
            evidence.append("after the replay, its access token at the resource: \(after)")
            if after.opened { alive.append("access token") }
        }
        if alive.isEmpty {
            return AuditResult(
                .tokenCodeSingleUse,
                .pass,
                "the replay got invalid_grant and the code's \(working.joined(separator: " and ")), working right before it, were revoked",
                evidence: evidence
            )
        }
        return AuditResult(
            .tokenCodeSingleUse,
            .warning,
            "the replay got invalid_grant, but the code's \(alive.joined(separator: " and ")) still work after it (RFC 6749 §4.1.2: SHOULD be revoked)",
            evidence: evidence
        )
    }

    func codeExpiry(_ codes: any AuditCodeSource, _ google: Client, _ errors: inout ErrorAnswers) async throws(AuditUnreachable) -> AuditResult {
        guard target.codeExpiry else { return AuditResult(.tokenCodeExpiry, .skipped, "slow (over 10 minutes): give --slow") }
        let oldCode = try await freshCode(codes)
        try? await Task.sleep(for: codeExpiryWait)
        let answer = try await exchange(oldCode, google)
        errors.note("expired code", answer)
        return expect(.tokenCodeExpiry, answer, error: "invalid_grant", statuses: [400], "a code \(codeExpiryWait) old")
    }

    func expect(_ check: AuditCheck, _ answer: TokenAnswer, error: String, statuses: Set<Int>, _ sent: String) -> AuditResult {
        let evidence = ["\(sent): \(answer)"]
        let expected = "HTTP \(statuses.sorted().map(String.init).joined(separator: " or ")) \(error)"
        if answer.isError(error, statuses: statuses) {
            return AuditResult(check, .pass, "\(sent): \(expected)", evidence: evidence)
        }
        return AuditResult(check, .fail, "\(sent) got \(answer.summary), not \(expected)", evidence: evidence)
    }
}
