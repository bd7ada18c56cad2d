import AppFlipCore
import AppFlipGoogle

/// The refusals, each probed as a family: every credential path the server accepts (with a wrong, empty
/// or missing secret; an unknown client) at every endpoint that authenticates the client, every way a
/// redirect_uri can differ from a code's own, and tokens the server never issued as a refresh token. Each
/// input that needs material has its own, and they run at once; a check fails naming every input that was
/// not refused as the rule says.
extension TokenEndpointAudit {
    /// One input of a family and what came back.
    struct Probe {
        var label: String
        var answer: TokenAnswer
        /// Whether the answer is the refusal the rule asks for.
        var refused: Bool
    }

    /// `token.code-redirect-binding`: another of the 12 (HTTP 400 `invalid_grant`, RFC 6749 §5.2), the code's
    /// own redirect URI mutated, every case mutation and the first of each other family
    /// (`invalid_grant`, or `invalid_request`: a URI registered for no client), and none at all (any
    /// refusal: no tokens). Each on a code of its own, at once.
    func redirectBinding(_ codes: any AuditCodeSource, _ google: Client) async throws(AuditUnreachable) {
        let check = CheckSpec.tokenCodeRedirectBinding
        let other = AppFlipRedirectURI.all.first { $0 != redirectURI && $0.environment == redirectURI.environment }!
        var inputs: [(label: String, redirectURI: String?, refused: @Sendable (TokenAnswer) -> Bool)] = [
            ("presented with \(other)", other.string, { $0.isError("invalid_grant") })
        ]
        for mutation in Self.bindingMutations(of: redirectURI) {
            // A URI registered for no client is also an invalid parameter value (RFC 6749 §5.2, invalid_request).
            inputs.append(("presented with its own \(mutation)", mutation.value, { $0.isError("invalid_grant") || $0.isError("invalid_request") }))
        }
        // Without redirect_uri any refusal keeps the binding; how the refusal is written is token.error-format's.
        inputs.append(("presented without redirect_uri", nil, { !$0.issuedTokens }))
        let probes = try await BoundedProbes.run(inputs, limit: concurrency) { input throws(AuditUnreachable) -> Probe? in
            guard let code = try await self.freshCode(codes, for: check) else { return nil }
            var fields = [("grant_type", "authorization_code"), ("code", code)]
            if let uri = input.redirectURI { fields.append(("redirect_uri", uri)) }
            let answer = try await self.post(
                self.target.url,
                fields,
                google,
                grant: .authorizationCode,
                for: "token.code-redirect-binding: \(input.label)"
            )
            return Probe(label: input.label, answer: answer, refused: input.refused(answer))
        }
        guard probes.count == inputs.count else { return }
        context.ledger.record(
            check,
            Self.family(
                "a code issued for \(redirectURI)",
                probes.compactMap { $0 },
                expected: "HTTP 400 invalid_grant (invalid_request for a URI registered for no client; any refusal without redirect_uri)"
            )
        )
    }

    /// The mutations of a code's redirect URI the token endpoint is probed with: every letter-case one and the
    /// first of each other family, none of them one of the 12.
    static func bindingMutations(of redirectURI: AppFlipRedirectURI) -> [Mutation] {
        var seen: Set<MutationFamily> = []
        return URIMutations.all(of: redirectURI.string, exact: AppFlipRedirectURI.all.map(\.string)).filter { mutation in
            guard mutation.family != .letterCase else { return true }
            return seen.insert(mutation.family).inserted
        }
    }

    /// `token.wrong-secret` at every endpoint that authenticates the client: a wrong secret by each method the
    /// server accepts, an empty one and none at all at the code grant; a wrong secret by each method at the
    /// refresh grant and at revocation (which must then revoke nothing). Each on material of its own.
    func wrongSecret(_ codes: any AuditCodeSource, _ methods: [ClientAuthMethod], _ google: Client) async throws(AuditUnreachable) {
        let check = CheckSpec.tokenWrongSecret
        let wrong = methods.map { method in
            var client = client(method)
            client.secret += "-wrong"
            return client
        }
        var empty = client(.post)
        empty.secret = ""
        let alone = Client(id: target.clientID, secret: "", method: nil)
        var inputs: [(label: String, client: Client)] = zip(methods, wrong).map { ("a wrong secret (\($0.name))", $1) }
        inputs += [("an empty client_secret", empty), ("client_id alone, no secret", alone)]
        try await clientRefusals(
            check,
            codeGrant: inputs,
            refreshAndRevocation: zip(methods, wrong).map { ("a wrong secret (\($0.name))", $1) },
            codes,
            google
        )
    }

    /// `token.unknown-client` at every endpoint that authenticates the client: Google's client_id mutated
    /// (a character appended, cut short, a NUL and more appended) with its secret, by each method the server
    /// accepts, at the code grant; the first of them by each method at the refresh grant and at revocation.
    func unknownClient(_ codes: any AuditCodeSource, _ methods: [ClientAuthMethod], _ google: Client) async throws(AuditUnreachable) {
        let mutations = IdentifierMutations.all(of: target.clientID, families: [.suffix, .prefix]).filter {
            $0.label != "without its first character"
        }
        let unknown = { (method: ClientAuthMethod, mutation: Mutation) -> (String, Client) in
            var client = self.client(method)
            client.id = mutation.value ?? ""
            return ("client_id \(mutation) (\(method.name))", client)
        }
        try await clientRefusals(
            .tokenUnknownClient,
            codeGrant: methods.flatMap { method in mutations.map { unknown(method, $0) } },
            refreshAndRevocation: mutations.first.map { first in methods.map { unknown($0, first) } } ?? [],
            codes,
            google
        )
    }

    /// The family of a client-authentication check: each code-grant input on a code of its own, each
    /// refresh-grant input on a refresh token of its own, each revocation input on a refresh token of its own
    /// that must still refresh afterwards; every answer must be `invalid_client` (HTTP 400 or 401).
    private func clientRefusals(
        _ check: CheckSpec,
        codeGrant: [(label: String, client: Client)],
        refreshAndRevocation: [(label: String, client: Client)],
        _ codes: any AuditCodeSource,
        _ google: Client
    ) async throws(AuditUnreachable) {
        var inputs: [(endpoint: String, label: String, client: Client)] = codeGrant.map { ("code grant", $0.label, $0.client) }
        inputs += refreshAndRevocation.map { ("refresh grant", $0.label, $0.client) }
        if target.revokeURL != nil { inputs += refreshAndRevocation.map { ("revocation", $0.label, $0.client) } }
        let probes = try await BoundedProbes.run(inputs, limit: concurrency) { input throws(AuditUnreachable) -> Probe? in
            let label = "\(input.label) at the \(input.endpoint)"
            switch input.endpoint {
            case "code grant":
                guard let code = try await self.freshCode(codes, for: check) else { return nil }
                let answer = try await self.exchange(code, input.client, for: "\(check.id): \(label)")
                return Probe(label: label, answer: answer, refused: answer.isError("invalid_client", statuses: [400, 401]))
            case "refresh grant":
                guard let tokens = try await self.ownTokens(codes, google, for: check), let refreshToken = tokens.refreshToken else { return nil }
                let answer = try await self.refresh(refreshToken, input.client, for: "\(check.id): \(label)")
                return Probe(label: label, answer: answer, refused: answer.isError("invalid_client", statuses: [400, 401]))
            default:
                guard let revokeURL = self.target.revokeURL, let tokens = try await self.ownTokens(codes, google, for: check),
                    let refreshToken = tokens.refreshToken
                else { return nil }
                let answer = try await self.revoke(refreshToken, hint: "refresh_token", at: revokeURL, input.client, for: "\(check.id): \(label)")
                let after = try await self.refresh(refreshToken, google, for: "\(check.id): the refresh token after \(label)")
                // The refusal must also leave the token alone: a revocation the server performed is the credentials ignored.
                let refused = answer.isError("invalid_client", statuses: [400, 401]) && (after.issuedTokens || !after.isError("invalid_grant"))
                let shown = after.issuedTokens || !after.isError("invalid_grant") ? label : "\(label) (and the token no longer refreshes: \(after))"
                return Probe(label: shown, answer: answer, refused: refused)
            }
        }
        // An input whose own material fell short is not sent (the rule its material broke fails there);
        // the others are judged.
        let sent = probes.compactMap { $0 }
        guard !sent.isEmpty else { return }
        var finding = Self.family("", sent, expected: "HTTP 400 or 401 invalid_client")
        let unsent = zip(inputs, probes).filter { $0.1 == nil }.map { "\($0.0.label) at the \($0.0.endpoint)" }
        if !unsent.isEmpty { finding.evidence.append("not sent, its own code or tokens fell short: " + unsent.joined(separator: "; ")) }
        context.ledger.record(check, finding)
    }

    /// `token.invalid-refresh`: a made-up refresh token; with a code source, its own tokens: the access token
    /// presented as the refresh token and every mutation of its refresh token (then the refresh token itself,
    /// for the evidence). A server that refuses the refresh grant itself (`token.refresh`'s one cause), or the
    /// client's credentials, leaves nothing for this rule to judge.
    func invalidRefresh(_ codes: (any AuditCodeSource)?, _ google: Client) async throws(AuditUnreachable) {
        let check = CheckSpec.tokenInvalidRefresh
        var inputs = [("a made-up refresh token", Self.madeUpToken())]
        var own: TokenAnswer?
        if let codes, let tokens = try await ownTokens(codes, google, for: check), let refreshToken = tokens.refreshToken {
            own = tokens
            if let access = tokens.accessToken { inputs.append(("an access token presented as the refresh token", access)) }
            inputs += Self.secretMutations(of: refreshToken).map { ("a real refresh token \($0.label)", $0.value ?? "") }
        }
        let answers = try await BoundedProbes.run(inputs, limit: concurrency) { input throws(AuditUnreachable) in
            try await self.refresh(input.1, google, for: "token.invalid-refresh: \(input.0)")
        }
        let probes = zip(inputs, answers).map { Probe(label: $0.0, answer: $1, refused: $1.isError("invalid_grant")) }
        var evidence = probes.map { "refreshing with \($0.label): \($0.answer)" }
        if let refreshToken = own?.refreshToken {
            let control = try await refresh(refreshToken, google, for: "token.invalid-refresh: the real refresh token, exactly")
            evidence.append("then the real \(Self.redacted("refresh_token", refreshToken)), exactly: \(control)")
        }
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
        var finding = Self.family("refreshing with", probes, expected: "HTTP 400 invalid_grant")
        finding.evidence = evidence
        ledger.record(check, finding)
    }

    /// The family's verdict: held when every input was refused as `expected`, else broken naming each input
    /// that was not, with what it got.
    static func family(_ sent: String, _ probes: [Probe], expected: String) -> Finding {
        let sent = sent.isEmpty ? "" : sent + " "
        let evidence = probes.map { "\(sent)\($0.label): \($0.answer)" }
        let failed = probes.filter { !$0.refused }
        guard failed.isEmpty else {
            return .fail(
                "\(failed.count) of \(probes.count) not refused with \(expected): "
                    + failed.map { "\(sent)\($0.label) got \($0.answer.summary)" }.joined(separator: "; "),
                evidence: evidence
            )
        }
        return .held(
            "\(probes.count) of \(probes.count) refused with \(expected): " + probes.map(\.label).joined(separator: ", "),
            evidence: evidence
        )
    }
}
