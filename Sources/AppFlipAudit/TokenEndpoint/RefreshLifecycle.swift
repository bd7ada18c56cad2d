import AppFlipCore

/// The refresh lifecycle as Google lives it: `token.refresh` and `token.refresh-chain` on the first
/// exchange's refresh token, refreshed three times in a row, each time with the refresh token the previous
/// answer gave (or the one presented, when none was given); `token.refresh-rotation` on a code of its own.
extension TokenEndpointAudit {
    static let chainLength = 3

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
        for step in 1...Self.chainLength {
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
                    "\(Self.chainLength) refreshes in a row, each with the current refresh token"
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
    /// is presented again before its successor is used (a lost answer) and must work, then the newest.
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
        // Rotated: the previous token must still work while its successor is unused (a lost answer).
        let previousAgain = try await refresh(original, google, for: "token.refresh-rotation: the rotated-out refresh token again")
        evidence.append("the rotated-out refresh token again, its successor unused: \(previousAgain)")
        guard previousAgain.issuedTokens else {
            ledger.record(
                check,
                .fail(
                    "the previous refresh token got \(previousAgain.summary) before its successor was used: one lost refresh answer unlinks the user",
                    evidence: evidence
                )
            )
            return
        }
        let next = try await refresh(previousAgain.refreshToken ?? successor, google, for: "token.refresh-rotation: the newest refresh token")
        evidence.append("the newest refresh token: \(next)")
        ledger.record(
            check,
            next.issuedTokens
                ? .held("the previous refresh token worked until its successor was used", evidence: evidence)
                : .fail("the newest refresh token got \(next.summary)", evidence: evidence)
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

    /// A fresh code of `check`'s own, exchanged: its tokens with a refresh token, or nil when the code, the
    /// exchange or the refresh token fell short (`check` is then skipped for its own need, naming the rule).
    func ownTokens(_ codes: any AuditCodeSource, _ google: Client, for check: CheckSpec) async throws(AuditUnreachable) -> TokenAnswer? {
        guard let code = try await freshCode(codes, for: check) else { return nil }
        let tokens = try await exchange(code, google, for: "\(check.id): its own code")
        let line = "exchange of its own \(Self.redacted("code", code)): \(tokens)"
        guard tokens.issuedTokens else {
            let why = "its own code got \(tokens.summary), not tokens (token.exchange)"
            context.ledger.set(.tokens, .brokeRule(.tokenExchange, why), for: check)
            context.ledger.record(.tokenExchange, .fail("\(check.id)'s own fresh code got \(tokens.summary), not tokens", evidence: [line]))
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
