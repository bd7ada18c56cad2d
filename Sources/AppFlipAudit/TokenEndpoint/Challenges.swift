import AppFlipCore
import AppFlipGoogle

/// The challenges a refusal must carry: `WWW-Authenticate: Basic` on a 401 to a failed HTTP Basic attempt
/// (RFC 6749 §5.2), and `WWW-Authenticate: Bearer` from the resource for a missing, made-up or revoked
/// token (RFC 6750 §3, §3.1).
extension TokenEndpointAudit {
    /// `token.www-authenticate`: a wrong secret in HTTP Basic, judged when Basic is accepted for the client.
    func basicChallenge(basicAccepted: Bool) async throws(AuditUnreachable) -> AuditResult {
        guard basicAccepted else {
            return AuditResult(
                .tokenWWWAuthenticate,
                .skipped,
                "HTTP Basic is not accepted for this client (token.client-auth), so its challenge is not judged"
            )
        }
        var wrong = client(.basic)
        wrong.secret += "-wrong"
        let answer = try await refresh(Self.madeUpToken(), wrong)
        let evidence = ["a made-up refresh token with a wrong secret in HTTP Basic: \(answer)"]
        // Whatever its `error` says, a 401 refuses the client's authentication: RFC 6749 §5.2 asks for the challenge.
        guard answer.error == "invalid_client" || answer.status == 401 else {
            return AuditResult(
                .tokenWWWAuthenticate,
                .skipped,
                "a wrong secret in HTTP Basic got \(answer.summary), not invalid_client: no client-authentication failure to judge",
                evidence: evidence
            )
        }
        if answer.status != 401 {
            return AuditResult(.tokenWWWAuthenticate, .fail, "a failed HTTP Basic attempt got HTTP \(answer.status), not 401", evidence: evidence)
        }
        guard Challenge.names(answer.wwwAuthenticate, scheme: "basic") else {
            let header =
                answer.wwwAuthenticate.map { "WWW-Authenticate: \(String($0.prefix(120))), which does not name Basic" } ?? "no WWW-Authenticate"
            return AuditResult(.tokenWWWAuthenticate, .fail, "a 401 to a failed HTTP Basic attempt has \(header)", evidence: evidence)
        }
        return AuditResult(.tokenWWWAuthenticate, .pass, "HTTP 401 with WWW-Authenticate naming Basic", evidence: evidence)
    }

    /// `token.resource-refusal`: no token and a made-up one, plus the revoked grant's access tokens.
    func resourceRefusal(revoked: [(String, ResourceAnswer)]) async throws(AuditUnreachable) -> AuditResult {
        guard target.resourceURL != nil, let none = try await resource(nil), let madeUp = try await resource(Self.madeUpToken()) else {
            return AuditResult(.tokenResourceRefusal, .skipped, "no resource: give --resource-url")
        }
        let inputs = [("no token", none), ("a token never issued", madeUp)] + revoked
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
        if !failures.isEmpty {
            return AuditResult(
                .tokenResourceRefusal,
                .fail,
                "\(failures.count) of \(inputs.count): " + failures.joined(separator: "; "),
                evidence: evidence
            )
        }
        if !warnings.isEmpty {
            return AuditResult(
                .tokenResourceRefusal,
                .warning,
                "\(warnings.count) of \(inputs.count): " + warnings.joined(separator: "; "),
                evidence: evidence
            )
        }
        return AuditResult(.tokenResourceRefusal, .pass, "\(inputs.count) refusals, each HTTP 401 with a Bearer challenge", evidence: evidence)
    }
}
