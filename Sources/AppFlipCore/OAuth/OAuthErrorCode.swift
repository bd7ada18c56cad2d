/// The `error` values of RFC 6749 §4.1.2.1 (authorization endpoint) and §5.2 (token endpoint).
public enum OAuthErrorCode: String, Sendable, Hashable, CaseIterable, Codable {
    case invalidRequest = "invalid_request"
    case unauthorizedClient = "unauthorized_client"
    case accessDenied = "access_denied"
    case unsupportedResponseType = "unsupported_response_type"
    case invalidScope = "invalid_scope"
    case serverError = "server_error"
    case temporarilyUnavailable = "temporarily_unavailable"
    case invalidClient = "invalid_client"
    case invalidGrant = "invalid_grant"
    case unsupportedGrantType = "unsupported_grant_type"
}
