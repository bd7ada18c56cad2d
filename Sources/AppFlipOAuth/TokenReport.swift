import AppFlipCore
import FoundationEssentials

/// What may be shown of a token response: shapes and fingerprints, never a token. It also checks the
/// rules Google's account-linking validation applies to a token endpoint.
public struct TokenReport: Sendable, Hashable, Codable {
    public enum TokenFormat: String, Sendable, Hashable, Codable {
        case opaque
        /// Three base64url segments separated by dots: a JWS compact serialisation.
        case jwt
    }

    public var tokenType: String
    public var expiresIn: Int?
    public var scopes: [String]
    public var accessTokenFormat: TokenFormat
    public var accessTokenFingerprint: String
    public var refreshTokenIssued: Bool
    public var refreshTokenFingerprint: String?
    /// Each broken account-linking rule, in words; empty when the response passes.
    public var violations: [String]

    init(_ response: TokenResponse) {
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
        if response.refreshToken == nil {
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
