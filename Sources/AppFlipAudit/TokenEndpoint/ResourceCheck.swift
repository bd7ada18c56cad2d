import AppFlipCore

extension TokenEndpointAudit {
    /// `token.resource` on the first answer's access token, and whether it opened the resource: the later
    /// checks judge access tokens at the resource only when this one did.
    func resourceCheck(_ tokens: TokenAnswer) async throws(AuditUnreachable) -> Bool {
        guard let resourceURL = target.resourceURL, let accessToken = tokens.accessToken,
            let answer = try await resource(accessToken, for: "token.resource: the first exchange's access token")
        else { return false }
        let evidence = ["Authorization: Bearer \(Self.redacted("access token", accessToken)): \(answer)"]
        let reason = "GET \(resourceURL) with the access token: \(answer)"
        context.ledger.record(.tokenResource, answer.opened ? .held(reason, evidence: evidence) : .fail(reason, evidence: evidence))
        return answer.opened
    }
}
