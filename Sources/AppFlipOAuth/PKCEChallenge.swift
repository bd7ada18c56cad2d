import AppFlipCore
import Crypto

/// Proof Key for Code Exchange (RFC 7636): a challenge bound to a code at /authorize and the verifier that
/// must accompany the code at /token.
public struct PKCEChallenge: Sendable, Hashable {
    /// `code_challenge_method` (RFC 7636 §4.3); `plain` when the client sent none.
    public enum Method: String, Sendable, Hashable {
        case plain
        case s256 = "S256"
    }

    /// `code_challenge`, as received.
    public var value: String
    /// How the verifier transforms to ``value``.
    public var method: Method

    /// Creates a challenge from /authorize's parameters.
    public init(value: String, method: Method) {
        self.value = value
        self.method = method
    }

    /// True when `verifier` is well formed (RFC 7636 §4.1) and transforms to this challenge. The final
    /// comparison is constant-time.
    public func isSatisfied(by verifier: String) -> Bool {
        guard Self.isWellFormed(verifier) else { return false }
        let transformed =
            switch method {
            case .plain: verifier
            case .s256: Base64URL.encode(SHA256.hash(data: Array(verifier.utf8)))
            }
        return SHA256.hash(data: Array(transformed.utf8)) == SHA256.hash(data: Array(value.utf8))
    }

    /// The derived S256 challenge of a verifier, as a client computes it.
    public static func s256(verifier: String) -> PKCEChallenge {
        PKCEChallenge(value: Base64URL.encode(SHA256.hash(data: Array(verifier.utf8))), method: .s256)
    }

    /// 43 to 128 characters of `[A-Za-z0-9-._~]`: the syntax of both verifiers and challenges.
    public static func isWellFormed(_ string: String) -> Bool {
        (43...128).contains(string.utf8.count) && string.utf8.allSatisfy(PercentEncoding.isUnreserved)
    }
}
