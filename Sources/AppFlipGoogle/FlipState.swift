import AppFlipOAuth
import FoundationEssentials

/// The `state` the Google app sends: a nonce it checks byte for byte in the result.
public enum FlipState {
    /// 32 random bytes from the system generator, in standard base64 (RFC 4648 §4): its `+`, `/` and `=`
    /// must be percent-encoded on the way back, so the default flip already tests the partner's encoding.
    public static func fresh() -> String {
        Data(SystemRandomSource().bytes(32)).base64EncodedString()
    }
}
