import AppFlipCore
import FoundationEssentials

/// A successful token endpoint answer (RFC 6749 §5.1). It holds real tokens, so its description is
/// redacted; print `report` instead.
public struct TokenResponse: Sendable, Hashable, CustomStringConvertible {
    /// `access_token`: a real token. Never log it; use ``report``.
    public var accessToken: String
    /// `token_type`, e.g. `Bearer` (RFC 6749 §7.1).
    public var tokenType: String
    /// `expires_in`: the access token's lifetime in seconds, when given.
    public var expiresIn: Int?
    /// `refresh_token`: a real token, when issued. Never log it.
    public var refreshToken: String?
    /// `scope`: the granted scopes, space-separated, when the endpoint said (RFC 6749 §3.3).
    public var scope: String?

    /// Creates a response, e.g. for the embedded server's tests.
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
            accessToken: body.access_token,
            tokenType: body.token_type,
            expiresIn: body.expires_in,
            refreshToken: body.refresh_token,
            scope: body.scope
        )
    }

    /// What may be shown of this response: shapes, fingerprints, and the account-linking rules it breaks.
    public var report: TokenReport { TokenReport(self) }

    /// The report of a refresh answer: as ``report``, but without a new refresh token being a violation
    /// (RFC 6749 §6 lets the server keep the one it has).
    public var refreshReport: TokenReport { TokenReport(self, refreshTokenRequired: false) }

    /// Redacted: the report's summary, never a token.
    public var description: String { "TokenResponse(\(report.summary))" }
}
