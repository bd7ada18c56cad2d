import AppFlipCore

/// The `state` the Google app sends: a nonce it checks byte for byte in the result.
public enum FlipState {
    /// 32 random bytes from the system generator, base64url without padding.
    public static func fresh() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}
