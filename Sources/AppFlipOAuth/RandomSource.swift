import AppFlipCore

/// Where codes, tokens, session credentials and `state` nonces come from. Injected so that tests can make
/// them predictable; production uses the operating system's CSPRNG.
public protocol RandomSource: Sendable {
    func bytes(_ count: Int) -> [UInt8]
}

/// `SystemRandomNumberGenerator`: `getrandom(2)` on Linux, `arc4random_buf` on Darwin.
public struct SystemRandomSource: RandomSource {
    public init() {}

    public func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in generator.next() }
    }
}

extension RandomSource {
    /// 256 random bits as unpadded base64url (43 characters): opaque, URL-safe, never a JWT.
    func opaqueToken() -> String {
        Base64URL.encode(bytes(32))
    }
}
