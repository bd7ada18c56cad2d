import AppFlipCore
import AppFlipGoogle

/// The refusals, each probed as a family: every credential path the server accepts (with a wrong, empty
/// or missing secret; an unknown client), every way a redirect_uri can differ from a code's own, and
/// tokens the server never issued as a refresh token. Each input that needs a code has its own; a check
/// fails naming every input that was not refused as the rule says.
extension TokenEndpointAudit {
    /// One input of a family and what came back.
    struct Probe {
        var label: String
        var answer: TokenAnswer
        /// Whether the answer is the refusal the rule asks for.
        var refused: Bool
    }

    /// `token.code-redirect-binding`: another of the 12 (HTTP 400 `invalid_grant`, RFC 6749 §5.2), the code's
    /// own with a trailing slash (`invalid_grant`, or `invalid_request`: a URI registered for no client), and
    /// none at all (any refusal: no tokens).
    func redirectBinding(_ codes: any AuditCodeSource, _ google: Client) async throws(AuditUnreachable) {
        let check = CheckSpec.tokenCodeRedirectBinding
        let other = AppFlipRedirectURI.all.first { $0 != redirectURI && $0.environment == redirectURI.environment }!
        var probes: [Probe] = []
        guard let otherCode = try await freshCode(codes, for: check) else { return }
        let otherAnswer = try await exchange(otherCode, redirectURI: other, google, for: "token.code-redirect-binding: another of the 12")
        probes.append(Probe(label: "presented with \(other)", answer: otherAnswer, refused: otherAnswer.isError("invalid_grant")))
        guard let slashCode = try await freshCode(codes, for: check) else { return }
        let slash = try await post(
            target.url,
            [("grant_type", "authorization_code"), ("code", slashCode), ("redirect_uri", redirectURI.string + "/")],
            google,
            grant: .authorizationCode,
            for: "token.code-redirect-binding: its own with a trailing slash"
        )
        // A URI registered for no client is also an invalid parameter value (RFC 6749 §5.2, invalid_request).
        probes.append(
            Probe(label: "presented with \(redirectURI)/", answer: slash, refused: slash.isError("invalid_grant") || slash.isError("invalid_request"))
        )
        // Without redirect_uri any refusal keeps the binding; how the refusal is written is token.error-format's.
        guard let omittedCode = try await freshCode(codes, for: check) else { return }
        let omitted = try await post(
            target.url,
            [("grant_type", "authorization_code"), ("code", omittedCode)],
            google,
            grant: .authorizationCode,
            for: "token.code-redirect-binding: without redirect_uri"
        )
        probes.append(Probe(label: "presented without redirect_uri", answer: omitted, refused: !omitted.issuedTokens))
        context.ledger.record(
            check,
            Self.family(
                "a code issued for \(redirectURI)",
                probes,
                expected: "HTTP 400 invalid_grant (invalid_request for the trailing slash; any refusal without redirect_uri)"
            )
        )
    }

    /// `token.wrong-secret`: a wrong secret by each method the server accepts, an empty one and none at all.
    func wrongSecret(_ codes: any AuditCodeSource, _ methods: [ClientAuthMethod]) async throws(AuditUnreachable) {
        let check = CheckSpec.tokenWrongSecret
        var probes: [Probe] = []
        for method in methods {
            var wrong = client(method)
            wrong.secret += "-wrong"
            guard let probe = try await refusal("a wrong secret (\(method.name))", codes, wrong, for: check) else { return }
            probes.append(probe)
        }
        var empty = client(.post)
        empty.secret = ""
        guard let emptyProbe = try await refusal("an empty client_secret", codes, empty, for: check) else { return }
        probes.append(emptyProbe)
        guard let code = try await freshCode(codes, for: check) else { return }
        let none = try await post(
            target.url,
            [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI.string), ("client_id", target.clientID)],
            Client(id: target.clientID, secret: "", method: nil),
            grant: .authorizationCode,
            for: "token.wrong-secret: client_id alone, no secret"
        )
        probes.append(Probe(label: "client_id alone, no secret", answer: none, refused: none.isError("invalid_client", statuses: [400, 401])))
        context.ledger.record(check, Self.family("a valid code with", probes, expected: "HTTP 400 or 401 invalid_client"))
    }

    /// `token.unknown-client`: an unknown client_id by each method the server accepts.
    func unknownClient(_ codes: any AuditCodeSource, _ methods: [ClientAuthMethod]) async throws(AuditUnreachable) {
        let check = CheckSpec.tokenUnknownClient
        var probes: [Probe] = []
        for method in methods {
            var unknown = client(method)
            unknown.id += "-unknown-to-the-audit"
            guard let probe = try await refusal("an unknown client_id (\(method.name))", codes, unknown, for: check) else { return }
            probes.append(probe)
        }
        context.ledger.record(check, Self.family("a valid code with", probes, expected: "HTTP 400 or 401 invalid_client"))
    }

    /// `token.invalid-refresh`: a made-up refresh token, the first exchange's access token presented as one,
    /// and its refresh token cut short by one character. A server that refuses the refresh grant itself
    /// (`token.refresh`'s one cause), or the client's credentials, leaves nothing for this rule to judge.
    func invalidRefresh(_ google: Client, issued: TokenAnswer?) async throws(AuditUnreachable) {
        let check = CheckSpec.tokenInvalidRefresh
        var inputs = [("a made-up refresh token", Self.madeUpToken())]
        if let access = issued?.accessToken { inputs.append(("an access token presented as the refresh token", access)) }
        if let refreshToken = issued?.refreshToken, refreshToken.count > 1 {
            inputs.append(("a real refresh token cut short by one character", String(refreshToken.dropLast())))
        }
        var probes: [Probe] = []
        for (label, token) in inputs {
            let answer = try await refresh(token, google, for: "token.invalid-refresh: \(label)")
            probes.append(Probe(label: label, answer: answer, refused: answer.isError("invalid_grant")))
        }
        let evidence = probes.map { "refreshing with \($0.label): \($0.answer)" }
        let ledger = context.ledger
        if ledger.state(of: .refreshGrant) == nil {
            ledger.set(
                .refreshGrant,
                probes.allSatisfy({ $0.answer.error == "unsupported_grant_type" })
                    ? .nothingToJudge("the server refuses the refresh grant itself (unsupported_grant_type)") : .met
            )
        }
        if probes.allSatisfy({ $0.answer.error == "invalid_client" }) {
            ledger.set(
                .refreshGrant,
                .nothingToJudge("the client's credentials were refused (invalid_client), so no refresh token was judged"),
                for: check
            )
            ledger.record(check, .note(evidence))
            return
        }
        if probes.allSatisfy({ $0.answer.error == "unsupported_grant_type" }) {
            ledger.record(check, .note(evidence))
            return
        }
        ledger.record(check, Self.family("refreshing with", probes, expected: "HTTP 400 invalid_grant"))
    }

    private func refusal(
        _ label: String,
        _ codes: any AuditCodeSource,
        _ client: Client,
        for check: CheckSpec
    ) async throws(AuditUnreachable) -> Probe? {
        guard let code = try await freshCode(codes, for: check) else { return nil }
        let answer = try await exchange(code, client, for: "\(check.id): \(label)")
        return Probe(label: label, answer: answer, refused: answer.isError("invalid_client", statuses: [400, 401]))
    }

    /// The family's verdict: held when every input was refused as `expected`, else broken naming each input
    /// that was not, with what it got.
    static func family(_ sent: String, _ probes: [Probe], expected: String) -> Finding {
        let evidence = probes.map { "\(sent) \($0.label): \($0.answer)" }
        let failed = probes.filter { !$0.refused }
        guard failed.isEmpty else {
            return .fail(
                "\(failed.count) of \(probes.count) not refused with \(expected): "
                    + failed.map { "\(sent) \($0.label) got \($0.answer.summary)" }.joined(separator: "; "),
                evidence: evidence
            )
        }
        return .held(
            "\(probes.count) of \(probes.count) refused with \(expected): " + probes.map(\.label).joined(separator: ", "),
            evidence: evidence
        )
    }
}
