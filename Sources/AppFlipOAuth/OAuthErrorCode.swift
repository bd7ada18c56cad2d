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

/// An error the token endpoint answers with: the RFC 6749 §5.2 JSON body.
struct TokenEndpointError: Error, Sendable, Hashable, CustomStringConvertible {
    var code: OAuthErrorCode
    var description: String

    init(_ code: OAuthErrorCode, _ description: String) {
        self.code = code
        self.description = description
    }
}
