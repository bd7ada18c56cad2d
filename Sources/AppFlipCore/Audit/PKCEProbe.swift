import Crypto

/// The PKCE parameters `authorize.code` adds to a request that got no code, to tell whether the server
/// requires PKCE for Google's client (RFC 7636 §4.2): App Flip links never carry them.
public enum PKCEProbe {
    /// The S256 `code_challenge` of `verifier`: base64url, without padding, of its SHA-256.
    public static func s256(verifier: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Array(verifier.utf8))))
    }
}
