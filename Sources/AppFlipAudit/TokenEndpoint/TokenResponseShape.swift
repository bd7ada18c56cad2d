import AppFlipCore
import AppFlipGoogle

/// The checks that read the first token answer without consuming anything: its shape (RFC 6749 §5.1, the
/// validation tool) and whether its access token opens the resource.
extension TokenEndpointAudit {
    /// The shape checks on a 200 answer that issued tokens.
    static func shape(_ answer: TokenAnswer) -> [AuditResult] {
        var results: [AuditResult] = []
        results.append(
            answer.isJSON
                ? AuditResult(.tokenJSON, .pass, "Content-Type \(answer.contentType ?? "")")
                : AuditResult(.tokenJSON, .fail, "Content-Type \(answer.contentType ?? "absent"), not application/json")
        )
        let noStore = answer.cacheControl?.lowercased().split(separator: ",").contains { $0.filter { $0 != " " } == "no-store" } == true
        results.append(
            noStore
                ? AuditResult(.tokenNoStore, .pass, "Cache-Control: \(answer.cacheControl ?? "")")
                : AuditResult(.tokenNoStore, .fail, "Cache-Control: \(answer.cacheControl ?? "absent"), without no-store (a MUST)")
        )
        let tokenType = answer.string("token_type")
        results.append(
            tokenType?.lowercased() == "bearer"
                ? AuditResult(.tokenBearer, .pass, "token_type \(tokenType ?? "")")
                : AuditResult(.tokenBearer, .fail, "token_type is \(tokenType.map { "\"\($0)\"" } ?? "absent"), not Bearer")
        )
        let accessToken = answer.accessToken ?? ""
        let format = TokenResponse(accessToken: accessToken, tokenType: "Bearer", expiresIn: nil, refreshToken: nil, scope: nil).report
            .accessTokenFormat
        results.append(
            format == .opaque
                ? AuditResult(.tokenOpaque, .pass, "opaque, \(accessToken.utf8.count) bytes")
                : AuditResult(.tokenOpaque, .fail, "the access token is a JWT (three base64url segments), \(accessToken.utf8.count) bytes")
        )
        switch answer.members?["expires_in"] {
        case .number(let seconds)? where seconds > 0 && seconds < 1e15 && seconds == seconds.rounded():
            results.append(AuditResult(.tokenExpiresIn, .pass, "expires_in \(Int(seconds))"))
        case nil:
            results.append(AuditResult(.tokenExpiresIn, .fail, "expires_in is missing"))
        case let value?:
            results.append(AuditResult(.tokenExpiresIn, .fail, "expires_in is \(value.compactJSON), not a positive integer"))
        }
        results.append(
            answer.refreshToken != nil
                ? AuditResult(.tokenRefreshIssued, .pass, "refresh_token issued")
                : AuditResult(.tokenRefreshIssued, .fail, "no refresh_token with an access token that expires")
        )
        return results
    }

    /// `token.resource` on the first answer's access token, and whether it opened the resource: the later
    /// checks judge access tokens at the resource only when this one did.
    func resourceCheck(_ tokens: TokenAnswer) async throws(AuditUnreachable) -> (AuditResult, Bool) {
        guard let resourceURL = target.resourceURL else { return (AuditResult(.tokenResource, .skipped, "no resource: give --resource-url"), false) }
        guard let accessToken = tokens.accessToken, let answer = try await resource(accessToken) else {
            return (AuditResult(.tokenResource, .skipped, "no access token"), false)
        }
        return (
            AuditResult(
                .tokenResource,
                answer.opened ? .pass : .fail,
                "GET \(resourceURL) with the access token: \(answer)",
                evidence: ["Authorization: Bearer \(Self.redacted("access token", accessToken)): \(answer)"]
            ),
            answer.opened
        )
    }
}
