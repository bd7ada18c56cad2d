import AppFlipCore
import AppFlipGoogle

/// The requests that call for a challenge: a wrong secret in HTTP Basic, when Basic is accepted for the
/// client (its answer, with every other 401 of the run, is judged by ``ChallengeJudge``), and the resource
/// without a token, with one never issued, a real one mutated, and the revoked grants'
/// (`token.resource-refusal`).
extension TokenEndpointAudit {
    /// A wrong secret in HTTP Basic with a made-up refresh token, sent only when Basic is shown accepted.
    func basicChallenge() async throws(AuditUnreachable) {
        guard
            context.exchanges.exchanges.contains(where: { exchange in
                guard exchange.clientAuth == .basic, case .token(let answer)? = exchange.answer else { return false }
                return answer.issuedTokens
            })
        else { return }
        var wrong = client(.basic)
        wrong.secret += "-wrong"
        _ = try await refresh(Self.madeUpToken(), wrong, for: "token.www-authenticate: a made-up refresh token with a wrong secret in HTTP Basic")
    }

    /// `token.resource-refusal`: no token, a made-up one, every mutation of the first exchange's access
    /// token (`issued`) a header can carry, and the revoked grants' access tokens.
    func resourceRefusal(revoked: [(String, ResourceAnswer)], issued: TokenAnswer?) async throws(AuditUnreachable) {
        guard target.resourceURL != nil, let none = try await resource(nil, for: "token.resource-refusal: no token") else { return }
        var tokens = [("a token never issued", Self.madeUpToken())]
        if let access = issued?.accessToken {
            // A header carries visible ASCII only (RFC 9110 §5.5): the other mutations cannot be sent there.
            tokens += Self.secretMutations(of: access).filter { $0.value?.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) == true }.map {
                ("a real access token \($0.label)", $0.value ?? "")
            }
        }
        let answers = try await BoundedProbes.run(tokens, limit: concurrency) { token throws(AuditUnreachable) in
            try await self.resource(token.1, for: "token.resource-refusal: \(token.0)")
        }
        let inputs = [("no token", none)] + zip(tokens, answers).compactMap { token, answer in answer.map { (token.0, $0) } } + revoked
        let evidence = inputs.map { "\($0.0): \($0.1)" }
        var failures: [String] = []
        var warnings: [String] = []
        for (index, (label, answer)) in inputs.enumerated() {
            if answer.opened {
                failures.append("\(label): \(answer), the resource opened")
            } else if !answer.challengesBearer {
                failures.append("\(label): \(answer), not a Bearer challenge")
            } else if answer.status != 401 {
                warnings.append("\(label): HTTP \(answer.status), not 401")
            } else if index == 0, let code = answer.errorCode {
                // RFC 6750 §3.1: a request without authentication SHOULD NOT get an error code.
                warnings.append("\(label): error=\(code) in the challenge to a request that sent no token")
            } else if index > 0 && answer.errorCode != "invalid_token" {
                // RFC 6750 §3, §3.1: a token that failed SHOULD get error="invalid_token".
                warnings.append("\(label): the challenge has \(answer.errorCode.map { "error=\($0)" } ?? "no error attribute"), not invalid_token")
            }
        }
        let finding: Finding =
            if !failures.isEmpty {
                .fail("\(failures.count) of \(inputs.count): " + failures.joined(separator: "; "), evidence: evidence)
            } else if !warnings.isEmpty {
                .warn("\(warnings.count) of \(inputs.count): " + warnings.joined(separator: "; "), evidence: evidence)
            } else {
                .held("\(inputs.count) refusals, each HTTP 401 with a Bearer challenge", evidence: evidence)
            }
        context.ledger.record(.tokenResourceRefusal, finding)
    }
}
