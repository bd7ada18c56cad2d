import AppFlipCore

/// The checks over every refusal of the run to a request Google can send: `token.error-format` (JSON with
/// `error`, on HTTP 400 or 401) and `token.error-fields` (RFC 6749 §5.2's member names and error values).
extension TokenEndpointAudit {
    /// RFC 6749 §5.2's error values, and those registered for the token endpoint's error response by the
    /// OAuth Extensions Error Registry (RFC 8628 §3.5, RFC 8707 §2, RFC 9449 §5 and §8).
    static let tokenErrorValues: Set<String> = [
        "invalid_request", "invalid_client", "invalid_grant", "unauthorized_client", "unsupported_grant_type", "invalid_scope",
        "authorization_pending", "slow_down", "access_denied", "expired_token", "invalid_target", "invalid_dpop_proof", "use_dpop_nonce",
    ]
    /// RFC 7009 §2.2.1 adds one value at the revocation endpoint.
    static let revocationErrorValues = tokenErrorValues.union(["unsupported_token_type"])
    /// Names servers use for the description that no client reads: RFC 6749 §5.2 calls it `error_description`.
    static let misnamedDescriptions: Set<String> = [
        "description", "message", "error_message", "errorDescription", "errorMessage", "error_msg", "msg", "detail", "details",
    ]

    static func errorFormat(_ answers: [(String, TokenAnswer)]) -> AuditResult {
        guard !answers.isEmpty else { return AuditResult(.tokenErrorFormat, .skipped, "no error answer was seen") }
        let broken = answers.filter { _, answer in
            !(answer.status == 400 || answer.status == 401) || answer.error == nil || !answer.isJSON
        }
        let evidence = answers.map { "\($0.0): \($0.1)" + ($0.1.contentType.map { " (\($0))" } ?? "") }
        guard broken.isEmpty else {
            return AuditResult(
                .tokenErrorFormat,
                .fail,
                "\(broken.count) of \(answers.count) errors are not JSON with error on HTTP 400/401: "
                    + broken.map { "\($0.0) got \($0.1.summary)" }.joined(separator: "; "),
                evidence: evidence
            )
        }
        return AuditResult(.tokenErrorFormat, .pass, "\(answers.count) errors, each JSON with error on HTTP 400/401", evidence: evidence)
    }

    static func errorFields(_ errors: ErrorAnswers) -> AuditResult {
        let judged =
            errors.token.map { ($0.0, $0.1, tokenErrorValues) } + errors.revocation.map { ($0.0, $0.1, revocationErrorValues) }
        let objects = judged.filter { $0.1.members != nil }
        guard !objects.isEmpty else { return AuditResult(.tokenErrorFields, .skipped, "no error answer with a JSON body was seen") }
        var problems: [String] = []
        for (label, answer, values) in objects {
            let members = answer.members ?? [:]
            if let error = answer.error, !values.contains(error) {
                problems.append("\(label): error=\(String(error.prefix(64))) is not a registered value")
            }
            if members["error_description"] == nil, let misnamed = members.keys.sorted().first(where: { misnamedDescriptions.contains($0) }) {
                problems.append("\(label): \"\(misnamed)\" instead of error_description")
            }
        }
        let evidence = objects.map { "\($0.0): members \(($0.1.members ?? [:]).keys.sorted().joined(separator: ", ")): \($0.1)" }
        guard problems.isEmpty else {
            return AuditResult(.tokenErrorFields, .fail, "\(problems.count) problem(s): " + problems.joined(separator: "; "), evidence: evidence)
        }
        return AuditResult(.tokenErrorFields, .pass, "\(objects.count) errors, each with registered names and values", evidence: evidence)
    }
}
