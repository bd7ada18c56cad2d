import AppFlipCore
import FoundationEssentials

/// What may be shown of a token response: shapes and fingerprints, never a token. It also checks the
/// rules Google's account-linking validation applies to a token endpoint.
public struct TokenReport: Sendable, Hashable, Codable {
    /// The shape of the access token, as far as it can be told without decoding it.
    public enum TokenFormat: String, Sendable, Hashable, Codable {
        case opaque
        /// Three base64url segments separated by dots: a JWS compact serialisation.
        case jwt
    }

    /// `token_type`; the account-linking rules want `Bearer`, case-insensitively.
    public var tokenType: String
    /// `expires_in`, in seconds; `nil` when the endpoint left it out.
    public var expiresIn: Int?
    /// `scope` split on spaces: what was granted, when the endpoint said.
    public var scopes: [String]
    /// Whether the access token is opaque or a JWT.
    public var accessTokenFormat: TokenFormat
    /// The access token's ``Fingerprint``, to tell tokens apart without showing one.
    public var accessTokenFingerprint: String
    /// Whether a `refresh_token` came back; Google needs one to keep the link alive.
    public var refreshTokenIssued: Bool
    /// The refresh token's ``Fingerprint``, when one came back.
    public var refreshTokenFingerprint: String?
    /// Each broken account-linking rule, in words; empty when the response passes.
    public var violations: [String]

    /// - Parameter refreshTokenRequired: `false` for a refresh answer, which may keep the refresh token
    ///   (RFC 6749 §6: the server MAY issue a new one).
    init(_ response: TokenResponse, refreshTokenRequired: Bool = true) {
        tokenType = response.tokenType
        expiresIn = response.expiresIn
        scopes = response.scope.map { $0.split(separator: " ").map(String.init) } ?? []
        accessTokenFormat = Self.looksLikeJWT(response.accessToken) ? .jwt : .opaque
        accessTokenFingerprint = "sha256:" + Fingerprint.of(response.accessToken)
        refreshTokenIssued = response.refreshToken != nil
        refreshTokenFingerprint = response.refreshToken.map { "sha256:" + Fingerprint.of($0) }
        var violations: [String] = []
        if response.tokenType.lowercased() != "bearer" {
            violations.append("token_type is \(response.tokenType), not Bearer")
        }
        if accessTokenFormat == .jwt {
            violations.append("the access token is a JWT; Google expects an opaque token")
        }
        switch response.expiresIn {
        case nil: violations.append("expires_in is missing")
        case let seconds? where seconds <= 0: violations.append("expires_in is \(seconds), not positive")
        default: break
        }
        if response.refreshToken == nil && refreshTokenRequired {
            violations.append("no refresh token was issued with an expiring access token")
        }
        self.violations = violations
    }

    /// One line for logs and traces.
    public var summary: String {
        var parts = [
            "token_type \(tokenType)", "expires_in \(expiresIn.map(String.init) ?? "absent")",
            "access \(accessTokenFormat.rawValue) \(accessTokenFingerprint)",
            "refresh \(refreshTokenFingerprint ?? "absent")", "scope \"\(scopes.joined(separator: " "))\"",
        ]
        if !violations.isEmpty { parts.append("violations: \(violations.joined(separator: "; "))") }
        return parts.joined(separator: ", ")
    }

    static func looksLikeJWT(_ token: String) -> Bool {
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        return segments.count == 3 && segments.prefix(2).allSatisfy { !$0.isEmpty }
            && segments.allSatisfy { $0.utf8.allSatisfy { PercentEncoding.isUnreserved($0) && $0 != UInt8(ascii: ".") } }
    }
}
