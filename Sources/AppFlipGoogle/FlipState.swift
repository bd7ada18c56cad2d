import FoundationEssentials

/// The `state` the Google app sends: a nonce it checks byte for byte in the result.
public enum FlipState {
    /// 32 random bytes from the system generator, in standard base64 (RFC 4648 §4): its `+`, `/` and `=`
    /// must be percent-encoded on the way back, so the default flip already tests the partner's encoding.
    public static func fresh() -> String {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }).base64EncodedString()
    }
}
