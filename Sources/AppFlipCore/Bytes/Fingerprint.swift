import Crypto

/// What a log may show of a secret, code, token or cookie: the first 8 hex digits of its SHA-256. Enough to
/// tell two values apart in a trace, useless for replaying one.
public enum Fingerprint {
    /// The first 8 lower-case hex digits of SHA-256 of `secret`.
    public static func of(_ secret: String) -> String {
        Hex.string(SHA256.hash(data: Array(secret.utf8)).prefix(4), uppercase: false)
    }
}

extension String {
    /// This text with every occurrence of each secret replaced by its fingerprint: for server-supplied
    /// text (an `error_description`) that may echo what was sent.
    package func redacting(_ secrets: [String]) -> String {
        secrets.filter { $0.count >= 4 }.reduce(self) { text, secret in
            text.replacing(secret, with: "sha256:" + Fingerprint.of(secret))
        }
    }
}
