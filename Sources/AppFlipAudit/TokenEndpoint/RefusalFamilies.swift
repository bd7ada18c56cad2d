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
    func redirectBinding(_ codes: any AuditCodeSource, _ google: Client, _ errors: inout ErrorAnswers) async throws(AuditUnreachable) -> AuditResult {
        let other = AppFlipRedirectURI.all.first { $0 != redirectURI && $0.environment == redirectURI.environment }!
        var probes: [Probe] = []
        let otherAnswer = try await exchange(try await freshCode(codes), redirectURI: other, google)
        probes.append(Probe(label: "presented with \(other)", answer: otherAnswer, refused: otherAnswer.isError("invalid_grant")))
        let slash = try await post(
            target.url,
            [("grant_type", "authorization_code"), ("code", try await freshCode(codes)), ("redirect_uri", redirectURI.string + "/")],
            google
        )
        // A URI registered for no client is also an invalid parameter value (RFC 6749 §5.2, invalid_request).
        probes.append(
            Probe(
                label: "presented with \(redirectURI)/",
                answer: slash,
                refused: slash.isError("invalid_grant") || slash.isError("invalid_request")
            )
        )
        // Without redirect_uri any refusal keeps the binding; how the refusal is written is token.error-format's.
        let omitted = try await post(target.url, [("grant_type", "authorization_code"), ("code", try await freshCode(codes))], google)
        probes.append(Probe(label: "presented without redirect_uri", answer: omitted, refused: !omitted.issuedTokens))
        for probe in probes { errors.note("a code \(probe.label)", probe.answer) }
        return Self.family(
            .tokenCodeRedirectBinding,
            "a code issued for \(redirectURI)",
            probes,
            expected: "HTTP 400 invalid_grant (invalid_request for the trailing slash; any refusal without redirect_uri)"
        )
    }

    /// `token.wrong-secret`: a wrong secret by each method the server accepts, an empty one and none at all.
    func wrongSecret(
        _ codes: any AuditCodeSource,
        _ methods: [ClientAuthMethod],
        _ errors: inout ErrorAnswers
    ) async throws(AuditUnreachable) -> AuditResult {
        var probes: [Probe] = []
        for method in methods {
            var wrong = client(method)
            wrong.secret += "-wrong"
            probes.append(try await refusal("a wrong secret (\(method.name))", try await freshCode(codes), wrong))
        }
        var empty = client(.post)
        empty.secret = ""
        probes.append(try await refusal("an empty client_secret", try await freshCode(codes), empty))
        let none = try await post(
            target.url,
            [
                ("grant_type", "authorization_code"), ("code", try await freshCode(codes)), ("redirect_uri", redirectURI.string),
                ("client_id", target.clientID),
            ],
            Client(id: target.clientID, secret: "", method: nil)
        )
        probes.append(Probe(label: "client_id alone, no secret", answer: none, refused: none.isError("invalid_client", statuses: [400, 401])))
        for probe in probes { errors.note(probe.label, probe.answer) }
        return Self.family(.tokenWrongSecret, "a valid code with", probes, expected: "HTTP 400 or 401 invalid_client")
    }

    /// `token.unknown-client`: an unknown client_id by each method the server accepts.
    func unknownClient(
        _ codes: any AuditCodeSource,
        _ methods: [ClientAuthMethod],
        _ errors: inout ErrorAnswers
    ) async throws(AuditUnreachable) -> AuditResult {
        var probes: [Probe] = []
        for method in methods {
            var unknown = client(method)
            unknown.id += "-unknown-to-the-audit"
            probes.append(try await refusal("an unknown client_id (\(method.name))", try await freshCode(codes), unknown))
        }
        for probe in probes { errors.note(probe.label, probe.answer) }
        return Self.family(.tokenUnknownClient, "a valid code with", probes, expected: "HTTP 400 or 401 invalid_client")
    }

    /// `token.invalid-refresh`: a made-up refresh token, the first exchange's access token presented as one,
    /// and its refresh token cut short by one character.
    /// With `refreshGrantRefused`, the server refuses the refresh grant itself (`token.refresh` reports it):
    /// a bogus token refused the same way is that one cause, not this rule's failure.
    func invalidRefresh(
        _ google: Client,
        issued: TokenAnswer?,
        refreshGrantRefused: Bool = false,
        _ errors: inout ErrorAnswers
    ) async throws(AuditUnreachable) -> AuditResult {
        var inputs = [("a made-up refresh token", Self.madeUpToken())]
        if let access = issued?.accessToken { inputs.append(("an access token presented as the refresh token", access)) }
        if let refreshToken = issued?.refreshToken, refreshToken.count > 1 {
            inputs.append(("a real refresh token cut short by one character", String(refreshToken.dropLast())))
        }
        var probes: [Probe] = []
        for (label, token) in inputs {
            let answer = try await refresh(token, google)
            errors.note(label, answer)
            probes.append(Probe(label: label, answer: answer, refused: answer.isError("invalid_grant")))
        }
        let evidence = probes.map { "refreshing with \($0.label): \($0.answer)" }
        if refreshGrantRefused, probes.allSatisfy({ $0.answer.error == "unsupported_grant_type" }) {
            return AuditResult(
                .tokenInvalidRefresh,
                .skipped,
                "needs token.refresh: the server refuses the refresh grant itself (unsupported_grant_type)",
                evidence: evidence
            )
        }
        if probes.allSatisfy({ $0.answer.error == "invalid_client" }) {
            return AuditResult(
                .tokenInvalidRefresh,
                .skipped,
                "the client's credentials were refused (invalid_client), so no refresh token was judged",
                evidence: evidence
            )
        }
        return Self.family(.tokenInvalidRefresh, "refreshing with", probes, expected: "HTTP 400 invalid_grant")
    }

    private func refusal(_ label: String, _ code: String, _ client: Client) async throws(AuditUnreachable) -> Probe {
        let answer = try await exchange(code, client)
        return Probe(label: label, answer: answer, refused: answer.isError("invalid_client", statuses: [400, 401]))
    }

    /// The family's verdict: a pass when every input was refused as `expected`, else a failure naming each
    /// input that was not, with what it got.
    static func family(_ check: AuditCheck, _ sent: String, _ probes: [Probe], expected: String) -> AuditResult {
        let evidence = probes.map { "\(sent) \($0.label): \($0.answer)" }
        let failed = probes.filter { !$0.refused }
        guard failed.isEmpty else {
            return AuditResult(
                check,
                .fail,
                "\(failed.count) of \(probes.count) not refused with \(expected): "
                    + failed.map { "\(sent) \($0.label) got \($0.answer.summary)" }.joined(separator: "; "),
                evidence: evidence
            )
        }
        return AuditResult(
            check,
            .pass,
            "\(probes.count) of \(probes.count) refused with \(expected): " + probes.map(\.label).joined(separator: ", "),
            evidence: evidence
        )
    }
}
