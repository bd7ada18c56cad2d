import AppFlipCore

/// The checks that each spend a fresh code of their own: a replay (`token.code-single-use`) and an old
/// code (`token.code-expiry`).
extension TokenEndpointAudit {
    /// `token.code-single-use`: the code's tokens are shown working right before the replay, so that what
    /// becomes of them after it is the replay's effect.
    func singleUse(_ codes: any AuditCodeSource, _ google: Client, resourceWorks: Bool) async throws(AuditUnreachable) {
        let check = CheckSpec.tokenCodeSingleUse
        guard let code = try await freshCode(codes, for: check) else { return }
        let first = try await exchange(code, google, for: "token.code-single-use: its own code")
        var evidence = ["exchange of its own \(Self.redacted("code", code)): \(first)"]
        guard first.issuedTokens else {
            context.ledger.set(.tokens, .brokeRule(.tokenExchange, "its own code's exchange got \(first.summary)"), for: check)
            context.ledger.record(
                .tokenExchange,
                .fail("token.code-single-use's own fresh code got \(first.summary), not tokens", evidence: evidence)
            )
            return
        }
        let working = try await shownWorking(first, google, resourceWorks: resourceWorks, &evidence)
        let replay = try await exchange(code, google, for: "token.code-single-use: the same code again")
        evidence.append("the same code again: \(replay)")
        if replay.issuedTokens {
            context.ledger.record(check, .fail("a replayed code got new tokens", evidence: evidence))
            return
        }
        guard replay.isError("invalid_grant") else {
            context.ledger.record(check, .fail("a replayed code got \(replay.summary), not HTTP 400 invalid_grant", evidence: evidence))
            return
        }
        guard !working.labels.isEmpty else {
            context.ledger.record(
                check,
                .held(
                    "the replay got invalid_grant (no token of the code could be shown working before it, so revocation is not judged)",
                    evidence: evidence
                )
            )
            return
        }
        var alive: [String] = []
        if working.labels.contains("refresh token"), let refreshToken = working.refreshToken {
            let after = try await refresh(refreshToken, google, for: "token.code-single-use: its refresh token after the replay")
            evidence.append("after the replay, its refresh token: \(after)")
            if after.issuedTokens { alive.append("refresh token") }
        }
        if working.labels.contains("access token"),
            let after = try await resource(working.access, for: "token.code-single-use: its access token after the replay")
        {
            evidence.append("after the replay, its access token at the resource: \(after)")
            if after.opened { alive.append("access token") }
        }
        context.ledger.record(
            check,
            alive.isEmpty
                ? .held(
                    "the replay got invalid_grant and the code's \(working.labels.joined(separator: " and ")), working right before it, were revoked",
                    evidence: evidence
                )
                : .warn(
                    "the replay got invalid_grant, but the code's \(alive.joined(separator: " and ")) still work after it (RFC 6749 §4.1.2: SHOULD be revoked)",
                    evidence: evidence
                )
        )
    }

    /// The tokens of `first` shown working right before an action: a refresh that gave a successor (or the
    /// presented token refreshing twice), and the newest access token opening the resource.
    private func shownWorking(
        _ first: TokenAnswer,
        _ google: Client,
        resourceWorks: Bool,
        _ evidence: inout [String]
    ) async throws(AuditUnreachable) -> (labels: [String], refreshToken: String?, access: String?) {
        var access = first.accessToken
        var refreshToken = first.refreshToken
        var labels: [String] = []
        if let current = refreshToken {
            let before = try await refresh(current, google, for: "token.code-single-use: its refresh token before the replay")
            evidence.append("before the replay, its refresh token: \(before)")
            if let usable = try await usableRefreshToken(after: before, presented: current, google, &evidence, for: .tokenCodeSingleUse) {
                labels.append("refresh token")
                refreshToken = usable.token
                access = usable.access ?? access
            } else {
                refreshToken = nil
                access = before.accessToken ?? access
            }
        }
        if resourceWorks, let before = try await resource(access, for: "token.code-single-use: its newest access token before the replay") {
            evidence.append("before the replay, its newest access token at the resource: \(before)")
            if before.opened { labels.append("access token") }
        }
        return (labels, refreshToken, access)
    }

    func codeExpiry(_ codes: any AuditCodeSource, _ google: Client) async throws(AuditUnreachable) {
        guard target.codeExpiry, let oldCode = try await freshCode(codes, for: .tokenCodeExpiry) else { return }
        try? await Task.sleep(for: codeExpiryWait)
        let answer = try await exchange(oldCode, google, for: "token.code-expiry: a code \(codeExpiryWait) old")
        let sent = "a code \(codeExpiryWait) old"
        let evidence = ["\(sent): \(answer)"]
        // RFC 6749 §4.1.2: ten minutes at most is RECOMMENDED; a refusal's form is token.error-format's.
        context.ledger.record(
            .tokenCodeExpiry,
            answer.issuedTokens
                ? .warn("\(sent) got \(answer.summary)", evidence: evidence) : .held("\(sent): refused, \(answer.summary)", evidence: evidence)
        )
    }
}
