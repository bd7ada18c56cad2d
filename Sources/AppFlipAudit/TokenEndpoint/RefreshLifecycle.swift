import AppFlipCore

/// The refresh lifecycle as Google lives it: `token.refresh` and `token.refresh-chain` on the first
/// exchange's refresh token, refreshed `--refresh-chain` times in a row, each time with the refresh token
/// the previous answer gave (or the one presented, when none was given); `token.refresh-rotation` on a code
/// of its own, the rotated-out token presented again at once and after `--rotation-grace`;
/// `token.refresh-after-expiry` with `--slow`.
extension TokenEndpointAudit {
    func refreshChain(from tokens: TokenAnswer, _ google: Client, resourceWorks: Bool) async throws(AuditUnreachable) {
        let ledger = context.ledger
        guard var presented = tokens.refreshToken else {
            ledger.set(.refreshToken, .brokeRule(.tokenRefreshIssued, "no refresh token was issued (token.refresh-issued)"))
            return
        }
        ledger.establish(.refreshToken)
        var previousAccess = tokens.accessToken
        var chain: [String] = []
        var resourceProblems: [String] = []
        let length = max(target.refreshChainLength, 1)
        for step in 1...length {
            let answer = try await refresh(presented, google, for: "token.refresh-chain: refresh \(step)")
            var line = "refresh \(step) with \(Self.redacted("refresh_token", presented)): \(answer)"
            guard answer.issuedTokens, let access = answer.accessToken else {
                chain.append(line)
                refreshFailed(at: step, answer, chain: chain)
                return
            }
            if step == 1 { refreshed(answer, line: line, sameAccess: access == previousAccess) }
            if resourceWorks, let opened = try await resource(access, for: "token.refresh-chain: refresh \(step)'s access token") {
                line += "; its access token at the resource: \(opened)"
                if !opened.opened { resourceProblems.append("the access token of refresh \(step) got \(opened) at the resource") }
            }
            chain.append(line)
            presented = answer.refreshToken ?? presented
            previousAccess = access
        }
        ledger.record(
            .tokenRefreshChain,
            resourceProblems.isEmpty
                ? .held(
                    "\(length) refreshes in a row, each with the current refresh token"
                        + (resourceWorks ? ", each access token opened the resource" : ""),
                    evidence: chain
                )
                : .fail(resourceProblems.joined(separator: "; "), evidence: chain)
        )
    }

    /// `token.refresh` on the first refresh: a new access token.
    private func refreshed(_ answer: TokenAnswer, line: String, sameAccess: Bool) {
        let ledger = context.ledger
        ledger.establish(.refresh)
        ledger.establish(.refreshGrant)
        ledger.record(
            .tokenRefresh,
            sameAccess
                ? .fail("the refresh returned the same access token", evidence: [line])
                : .held(
                    answer.refreshToken == nil ? "a new access token (no new refresh token: allowed, RFC 6749 §6)" : "a new access token",
                    evidence: [line]
                )
        )
    }

    /// A refresh of the chain got no tokens: at the first, `token.refresh` fails; later, the chain does.
    private func refreshFailed(at step: Int, _ answer: TokenAnswer, chain: [String]) {
        let ledger = context.ledger
        guard answer.status < 500 else {
            // A server error is the server down (or not bearing the audit's concurrency), never a rule.
            let why = "refresh \(step) got \(answer.summary): a server error"
            if step == 1 {
                ledger.set(.refresh, .couldNotRun(.serverError, why))
            } else {
                ledger.set(.refresh, .couldNotRun(.serverError, why), for: .tokenRefreshChain)
            }
            ledger.record(.tokenRefreshChain, .note(chain))
            return
        }
        guard step > 1 else {
            let why = "a refresh got \(answer.summary), not a new access token"
            ledger.set(.refresh, .brokeRule(.tokenRefresh, why))
            if answer.error == "unsupported_grant_type" {
                ledger.set(.refreshGrant, .brokeRule(.tokenRefresh, "the server refuses the refresh grant itself (unsupported_grant_type)"))
            }
            ledger.record(.tokenRefresh, .fail(why, evidence: chain))
            return
        }
        let unlinked = answer.error == "invalid_grant" ? "linked users are unlinked at refresh \(step)" : "refresh \(step) fails"
        ledger.record(
            .tokenRefreshChain,
            .fail("\(unlinked): it got \(answer.summary) with the refresh token the previous answer left current", evidence: chain)
        )
    }

    /// `token.refresh-rotation` on its own code: when a refresh rotates the refresh token, the previous one
    /// is presented again before its successor is used (a lost answer), at once and again after
    /// `--rotation-grace` (Google's retry), and must work each time; then the newest.
    func rotation(_ codes: any AuditCodeSource, _ google: Client) async throws(AuditUnreachable) {
        let check = CheckSpec.tokenRefreshRotation
        let ledger = context.ledger
        guard let tokens = try await ownTokens(codes, google, for: check), let original = tokens.refreshToken else { return }
        let refreshed = try await refresh(original, google, for: "token.refresh-rotation: refresh")
        var evidence = ["refresh with \(Self.redacted("refresh_token", original)): \(refreshed)"]
        guard refreshed.issuedTokens else {
            ledger.set(.refresh, .brokeRule(.tokenRefresh, "its own refresh got \(refreshed.summary) (token.refresh judges refreshing)"), for: check)
            ledger.record(check, .note(evidence))
            return
        }
        guard let successor = refreshed.refreshToken, successor != original else {
            ledger.set(
                .rotation,
                .nothingToJudge(
                    "nothing rotates: the refresh answer carries no new refresh token (token.refresh-chain shows whether the presented one keeps working)"
                )
            )
            ledger.record(check, .note(evidence))
            return
        }
        ledger.establish(.rotation)
        // Rotated: the previous token must still work while its successor is unused (a lost answer), at once
        // and when Google retries.
        var newest = successor
        for delay in [Duration.zero, target.rotationGrace] {
            let when = delay == .zero ? "at once" : "after \(delay)"
            if delay > .zero { try? await Task.sleep(for: delay) }
            let again = try await refresh(original, google, for: "token.refresh-rotation: the rotated-out refresh token again, \(when)")
            evidence.append("the rotated-out refresh token again \(when), its successor unused: \(again)")
            guard again.issuedTokens else {
                ledger.record(
                    check,
                    .fail(
                        "the previous refresh token got \(again.summary) \(when), before its successor was used: one lost refresh answer unlinks the user",
                        evidence: evidence
                    )
                )
                return
            }
            newest = again.refreshToken ?? newest
        }
        let next = try await refresh(newest, google, for: "token.refresh-rotation: the newest refresh token")
        evidence.append("the newest refresh token: \(next)")
        ledger.record(
            check,
            next.issuedTokens
                ? .held(
                    "the previous refresh token worked at once and after \(target.rotationGrace), until its successor was used",
                    evidence: evidence
                )
                : .fail("the newest refresh token got \(next.summary)", evidence: evidence)
        )
    }

    /// `token.refresh-after-expiry` (`--slow`): its own tokens, the access token's `expires_in` waited out
    /// (when it is at most what `--slow` waits), then a refresh must give a new access token.
    func refreshAfterExpiry(_ codes: any AuditCodeSource, _ google: Client, resourceWorks: Bool) async throws(AuditUnreachable) {
        let check = CheckSpec.tokenRefreshAfterExpiry
        guard let tokens = try await ownTokens(codes, google, for: check), let refreshToken = tokens.refreshToken else { return }
        guard case .number(let seconds)? = tokens.members?["expires_in"], seconds > 0, seconds < 1e9, seconds == seconds.rounded() else {
            context.ledger.set(.slow, .nothingToJudge("the token response gives no expires_in to wait out (token.expires-in)"), for: check)
            return
        }
        let lifetime = Int(seconds)
        guard Duration.seconds(lifetime) < codeExpiryWait else {
            context.ledger.set(
                .slow,
                .nothingToJudge("the access token lives \(lifetime) s, longer than --slow waits (\(codeExpiryWait))"),
                for: check
            )
            return
        }
        let wait = Duration.seconds(lifetime + 1)
        try? await Task.sleep(for: wait)
        var evidence = ["exchange of its own code: \(tokens)"]
        if resourceWorks, let expired = try await resource(tokens.accessToken, for: "token.refresh-after-expiry: the expired access token") {
            evidence.append("\(wait) later, the expired access token at the resource: \(expired)")
        }
        let answer = try await refresh(refreshToken, google, for: "token.refresh-after-expiry: refresh once the access token expired")
        evidence.append("\(wait) later, refresh with \(Self.redacted("refresh_token", refreshToken)): \(answer)")
        context.ledger.record(
            check,
            answer.issuedTokens
                ? .held("\(wait) after the exchange, past expires_in, the refresh got a new access token", evidence: evidence)
                : .fail(
                    "once the access token expired (\(wait) after the exchange), the refresh got \(answer.summary): linked users are unlinked at the first expiry",
                    evidence: evidence
                )
        )
    }

    /// A refresh token shown usable right now, after `answer` refreshed `presented`, and the newest access
    /// token: the successor the answer gave (just issued), else `presented` once it has refreshed again.
    /// Nil when the presented token was retired without a successor: what happens to it later is then no
    /// effect of the action a check judges.
    func usableRefreshToken(
        after answer: TokenAnswer,
        presented: String,
        _ google: Client,
        _ evidence: inout [String],
        for check: CheckSpec
    ) async throws(AuditUnreachable) -> (token: String, access: String?)? {
        guard answer.issuedTokens else { return nil }
        if let successor = answer.refreshToken, successor != presented { return (successor, answer.accessToken) }
        let again = try await refresh(presented, google, for: "\(check.id): the presented refresh token again")
        evidence.append("no new refresh token was given, so the presented one again: \(again)")
        guard again.issuedTokens else { return nil }
        return (again.refreshToken ?? presented, again.accessToken ?? answer.accessToken)
    }

    /// `check`'s own code got `answer`, not tokens: a server error is the server down (or not bearing the
    /// audit's concurrency), and `check` is skipped for it; any other answer breaks `token.exchange`.
    func shortOfTokens(_ answer: TokenAnswer, line: String, for check: CheckSpec) {
        guard answer.status < 500 else {
            context.ledger.set(.tokens, .couldNotRun(.serverError, "its own code got \(answer.summary): a server error"), for: check)
            return
        }
        context.ledger.set(.tokens, .brokeRule(.tokenExchange, "its own code got \(answer.summary), not tokens (token.exchange)"), for: check)
        context.ledger.record(.tokenExchange, .fail("\(check.id)'s own fresh code got \(answer.summary), not tokens", evidence: [line]))
    }

    /// A fresh code of `check`'s own, exchanged: its tokens with a refresh token, or nil when the code, the
    /// exchange or the refresh token fell short (`check` is then skipped for its own need, naming the rule).
    func ownTokens(_ codes: any AuditCodeSource, _ google: Client, for check: CheckSpec) async throws(AuditUnreachable) -> TokenAnswer? {
        guard let code = try await freshCode(codes, for: check) else { return nil }
        let tokens = try await exchange(code, google, for: "\(check.id): its own code")
        let line = "exchange of its own \(Self.redacted("code", code)): \(tokens)"
        guard tokens.issuedTokens else {
            shortOfTokens(tokens, line: line, for: check)
            return nil
        }
        guard tokens.refreshToken != nil else {
            context.ledger.set(.refreshToken, .brokeRule(.tokenRefreshIssued, "its own code got no refresh token (token.refresh-issued)"), for: check)
            return nil
        }
        context.ledger.record(check, .note([line]))
        return tokens
    }
}
