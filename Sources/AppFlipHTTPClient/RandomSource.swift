import AppFlipCore
import Glibc

/// Where codes, tokens, session credentials and `state` nonces come from. Injected so that tests can make
/// them predictable; production uses the operating system's CSPRNG.
public protocol RandomSource: Sendable {
    func bytes(_ count: Int) -> [UInt8]
}

extension RandomSource {
    /// 256 random bits as unpadded base64url (43 characters): opaque, URL-safe, never a JWT.
    package func opaqueToken() -> String {
        Base64URL.encode(bytes(32))
    }
}

/// The kernel's CSPRNG: glibc's `arc4random_buf`, which is `getrandom(2)` (glibc 2.36 or newer).
public struct SystemRandomSource: RandomSource {
    /// Creates the source; it has no state.
    public init() {}

    /// `count` bytes from the system's cryptographically secure generator, in one call.
    ///
    /// Not `SystemRandomNumberGenerator`, which makes one system call per byte: a profile of
    /// `appflip-bench --flip-parts` shows it.
    public func bytes(_ count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if let base = buffer.baseAddress { arc4random_buf(base, count) }
            initialized = count
        }
    }
}
