import AppFlipCore

/// The authorization endpoint's preconditions, established once on a valid request as Google sends it:
/// `authorize.sign-in` (the credential is accepted: the request ends at its redirect_uri, not at a login
/// page, 401 or 403) and `authorize.code` (that redirect carries a code in its query). When it carries none,
/// the same request with an S256 `code_challenge` and each scope alone tell a server that requires PKCE or
/// refuses the scope list as Google writes it; ``Blame`` says whose the shortfall is.
extension AuthorizationEndpointAudit {
    func preconditions() async throws(AuditUnreachable) {
        let state = "appflip-audit-sign-in"
        let answer = try await authorize(clientID: target.clientID, redirectURI: redirectURI.string, state: state, for: "authorize.sign-in")
        let evidence = ["GET \(String(target.url.prefix { $0 != "?" })) with the sign-in credential, redirect_uri \(redirectURI): \(answer)"]
        let signIn = Blame.signIn(answer)
        signIn.apply(to: .signIn, establishedBy: .authorizeSignIn, in: context.ledger, evidence: evidence)
        guard case .met = signIn else { return }
        let readCode = { (answer: AuthorizationAnswer) in self.code(answer, redirectURI: self.redirectURI.string, state: state) }
        if let code = readCode(answer) {
            register(code, from: "the authorize.sign-in request")
            Blame.met("a valid request without code_challenge got a code").apply(
                to: .authorizationCode,
                establishedBy: .authorizeCode,
                in: context.ledger,
                evidence: evidence
            )
            return
        }
        var probes = Blame.AuthorizationProbes()
        var probeEvidence = evidence
        if answer.location.map({ LocationJudge.parameter("error", in: $0) != nil }) == true {
            let verifier = "appflip-audit-pkce-" + (0..<4).map { _ in String(UInt64.random(in: .min ... .max), radix: 36) }.joined()
            let withPKCE = try await authorize(
                clientID: target.clientID,
                redirectURI: redirectURI.string,
                state: state,
                extra: [("code_challenge", PKCEProbe.s256(verifier: verifier)), ("code_challenge_method", "S256")],
                for: "authorize.code: the same request with code_challenge"
            )
            probes.withPKCE = withPKCE
            probeEvidence.append("the same request with code_challenge (S256): \(withPKCE)")
            if target.scopes.count > 1 && readCode(withPKCE) == nil {
                for scope in target.scopes {
                    let alone = try await authorize(
                        clientID: target.clientID,
                        redirectURI: redirectURI.string,
                        state: state,
                        scopes: [scope],
                        for: "authorize.code: scope \(scope) alone"
                    )
                    probes.scopesAlone.append((scope, alone))
                    probeEvidence.append("scope \(String(reflecting: scope)) alone: \(alone)")
                }
            }
        }
        Blame.authorizationCode(answer, probes: probes, code: readCode).apply(
            to: .authorizationCode,
            establishedBy: .authorizeCode,
            in: context.ledger,
            evidence: probeEvidence
        )
    }

    /// Registers a code the endpoint handed out; one handed out before breaks `authorize.code`.
    func register(_ code: String, from request: String) {
        if let earlier = context.codes.register(code, by: request) {
            context.ledger.record(.authorizeCode, .fail("\(request) got the code already handed out for \(earlier): each request gets a new code"))
        }
    }
}
