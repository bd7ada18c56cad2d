/// The `state` the Google app sends: a nonce it checks byte for byte in the result.
public enum FlipState {
    /// 32 random bytes from the system generator, base64url without padding.
    public static func fresh() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var output = ""
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            let value = chunk.enumerated().reduce(0) { $0 | Int($1.element) << (16 - 8 * $1.offset) }
            for position in 0..<(chunk.count + 1) { output.append(alphabet[(value >> (18 - 6 * position)) & 63]) }
            index += 3
        }
        return output
    }
}
