import AppFlipCore

/// Where codes, tokens, session credentials and `state` nonces come from. Injected so that tests can make
/// them predictable; production uses the operating system's CSPRNG.
public protocol RandomSource: Sendable {
    func bytes(_ count: Int) -> [UInt8]
}

extension RandomSource {
    /// 256 random bits as unpadded base64url (43 characters): opaque, URL-safe, never a JWT.
    func opaqueToken() -> String {
        Base64URL.encode(bytes(32))
    }
}
