import AppFlipCore
import FoundationEssentials

/// A successful token endpoint answer (RFC 6749 §5.1). It holds real tokens, so its description is
/// redacted; print `report` instead.
public struct TokenResponse: Sendable, Hashable, CustomStringConvertible {
    public var accessToken: String
    public var tokenType: String
    public var expiresIn: Int?
    public var refreshToken: String?
    public var scope: String?

    public init(accessToken: String, tokenType: String, expiresIn: Int?, refreshToken: String?, scope: String?) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.refreshToken = refreshToken
        self.scope = scope
    }

    /// Parses the JSON body; nil when a required member is missing or mistyped.
    init?(json: [UInt8]) {
        struct Body: Decodable {
            var access_token: String
            var token_type: String
            var expires_in: Int?
            var refresh_token: String?
            var scope: String?
        }
        guard let body = try? JSONDecoder().decode(Body.self, from: Data(json)), !body.access_token.isEmpty else {
            return nil
        }
        self.init(
            accessToken: body.access_token, tokenType: body.token_type, expiresIn: body.expires_in,
            refreshToken: body.refresh_token, scope: body.scope
        )
    }

    public var report: TokenReport { TokenReport(self) }

    public var description: String { "TokenResponse(\(report.summary))" }
}
