import AppFlipCore

/// An error the token endpoint answers with: the RFC 6749 §5.2 JSON body.
struct TokenEndpointError: Error, Sendable, Hashable, CustomStringConvertible {
    var code: OAuthErrorCode
    var description: String

    init(_ code: OAuthErrorCode, _ description: String) {
        self.code = code
        self.description = description
    }
}
