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
            shortOfTokens(first, line: evidence[0], for: check)
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

/// The single-use and exactness of codes under families: a code exchanged twice at once, and a code the
/// server never issued — a real one mutated.
extension TokenEndpointAudit {
    /// The mutations of a code or token the audit sends in its place: the real one in another letter case,
    /// cut short by a character at either end, cut to its first half. A server that takes one of them for
    /// the real one compares without case or by a prefix, so that fewer guesses find a live secret (RFC 6749
    /// §10.10). A longer value or a lookalike (a suffix, a NUL, a normalisation form) is left out: a server
    /// that takes it has still been shown the whole secret, and no rule is broken.
    static func secretMutations(of secret: String) -> [Mutation] {
        IdentifierMutations.all(of: secret, families: [.letterCase, .prefix, .truncation]).filter { $0.value?.isEmpty == false }
    }

    /// `token.code-single-use`, concurrently: its own code exchanged twice at once gets tokens at most once.
    /// Not sent with `--concurrency 1`, which asks for one request at a time.
    func concurrentReplay(_ codes: any AuditCodeSource, _ google: Client) async throws(AuditUnreachable) {
        let check = CheckSpec.tokenCodeSingleUse
        guard concurrency > 1 else {
            context.ledger.record(check, .note(["a code twice at once: not sent, --concurrency 1 asks for one request at a time"]))
            return
        }
        guard let code = try await freshCode(codes, for: check) else { return }
        let answers = try await BoundedProbes.run([1, 2], limit: 2) { attempt throws(AuditUnreachable) in
            try await self.exchange(code, google, for: "token.code-single-use: its own code twice at once (\(attempt) of 2)")
        }
        let evidence = answers.enumerated().map { "the same \(Self.redacted("code", code)) twice at once, \($0.offset + 1) of 2: \($0.element)" }
        let issued = answers.filter(\.issuedTokens).count
        context.ledger.record(
            check,
            issued > 1
                ? .fail("a code exchanged twice at once got tokens twice: its single use does not hold under concurrency", evidence: evidence)
                : .held("a code exchanged twice at once got tokens \(issued == 1 ? "once" : "neither time")", evidence: evidence)
        )
    }

    /// `token.invalid-code`: every mutation of its own fresh code is refused; then the code itself is
    /// exchanged, for the evidence that the mutations were of a live code.
    func invalidCode(_ codes: any AuditCodeSource, _ google: Client) async throws(AuditUnreachable) {
        let check = CheckSpec.tokenInvalidCode
        guard let code = try await freshCode(codes, for: check) else { return }
        let mutations = Self.secretMutations(of: code)
        let answers = try await BoundedProbes.run(mutations, limit: concurrency) { mutation throws(AuditUnreachable) in
            try await self.exchange(mutation.value ?? "", google, for: "token.invalid-code: its own code \(mutation.label)")
        }
        let probes = zip(mutations, answers).map { mutation, answer in
            // RFC 6749 §5.2: invalid_grant; a value the server reads as malformed may be invalid_request.
            Probe(
                label: "its own code \(mutation.label)",
                answer: answer,
                refused: answer.isError("invalid_grant") || answer.isError("invalid_request")
            )
        }
        let control = try await exchange(code, google, for: "token.invalid-code: its own code, exactly")
        var finding = Self.family("presented", probes, expected: "HTTP 400 invalid_grant (or invalid_request)")
        finding.evidence.append("then its own \(Self.redacted("code", code)), exactly: \(control)")
        context.ledger.record(check, finding)
    }
}
