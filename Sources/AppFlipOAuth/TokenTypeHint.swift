import Synchronization

/// RFC 7009 §2.1 `token_type_hint`.
enum TokenTypeHint: String, Sendable, Hashable {
    case accessToken = "access_token"
    case refreshToken = "refresh_token"
}
