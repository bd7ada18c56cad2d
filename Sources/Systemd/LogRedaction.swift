import AppFlipCore

/// Keeps codes, tokens, secrets, cookies and passwords out of logs, even when a caller forgets.
///
/// Defence in depth, applied by `JournalLogHandler` to every entry before it leaves the process. Which
/// names are secret, and what a secret value becomes, is AppFlipCore's `SecretNames`: the rule the daemon's
/// URL redaction (`Redaction` in AppFlipProtocol) follows too, so a value hidden in a reply or a `watch`
/// event is hidden here, and reads the same.
/// - **By key.** A metadata key is sensitive when one of its words is a sensitive one: `code`, `authCode`,
///   `access_token`, `client-secret`, `Set-Cookie`, … but not `error_code` or `exitCode`. Its value is
///   replaced by `fingerprint(value)`.
/// - **Inside text.** The message and every value are scrubbed of the values of `name=value` pairs (URL
///   queries, form bodies; quoted or not), `"name": "value"` JSON members and `name: "value"` Swift
///   descriptions whose name is sensitive by the rule above, of the credential in an `Authorization: …`
///   header and of the token after `Bearer`. A result URL `…?code=4/0Ab…&state=xyz` is logged as
///   `…?code=[redacted:7B]&state=xyz`. A credential in any other shape (`code: 4/0Ab` unquoted, a bare
///   token) is not recognised: the key rule is the guard that holds.
public struct LogRedaction: Sendable {
    /// What a sensitive value becomes.
    public let fingerprint: @Sendable (String) -> String

    /// Creates a redaction that shows a sensitive value as its length in bytes, `[redacted:NB]`, as the
    /// daemon's replies and `watch` events do.
    public init() {
        self.init(fingerprint: { SecretNames.placeholder(for: $0) })
    }

    /// Creates a redaction that shows a sensitive value as `fingerprint(value)`: a daemon that links a hash
    /// may pass a truncated keyed hash, so that two lines about the same code can be matched.
    public init(fingerprint: @escaping @Sendable (String) -> String) {
        self.fingerprint = fingerprint
    }

    /// Whether the value of metadata key `key` must not be logged.
    public func isSensitive(key: String) -> Bool {
        SecretNames.isSecret(name: key)
    }

    /// The value to log for metadata key `key`.
    public func redact(key: String, value: String) -> String {
        isSensitive(key: key) ? fingerprint(value) : scrub(value)
    }

    /// `text` with every embedded credential replaced by its fingerprint.
    public func scrub(_ text: String) -> String {
        scrubber.scrub(text)
    }

    /// The UTF-8 `text` with every embedded credential replaced by its fingerprint, appended to `output`.
    func scrub(utf8 text: UnsafeBufferPointer<UInt8>, appendingTo output: inout [UInt8]) {
        scrubber.scrub(utf8: text, appendingTo: &output)
    }

    private var scrubber: CredentialScrubber {
        CredentialScrubber(fingerprint: fingerprint)
    }
}
