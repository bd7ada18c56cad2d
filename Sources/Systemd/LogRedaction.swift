/// Keeps codes, tokens, secrets, cookies and passwords out of logs, even when a caller forgets.
///
/// Defence in depth, applied by `JournalLogHandler` to every entry before it leaves the process:
/// - **By key.** A metadata key is sensitive when one of its words (as `JournalFieldName` splits it) is
///   one of `sensitiveWords`: `code`, `authCode`, `access_token`, `client-secret`, `Set-Cookie`, … Its
///   value is replaced by `fingerprint(value)`. `CODE` right after `ERROR`, `EXIT`, `STATUS`, `HTTP`,
///   `REASON`, `RESPONSE` or `RESULT` names a code that is not a credential (`error_code`, `exitCode`)
///   and stays readable.
/// - **Inside text.** The message and every value are scrubbed of the values of `name=value` pairs (URL
///   queries, form bodies; quoted or not), `"name": "value"` JSON members and `name: "value"` Swift
///   descriptions whose name is sensitive by the rule above, of the credential in an `Authorization: …`
///   header and of the token after `Bearer`. A result URL `…?code=4/0Ab…&state=xyz` is logged as
///   `…?code=[redacted]&state=xyz`. A credential in any other shape (`code: 4/0Ab` unquoted, a bare
///   token) is not recognised: the key rule is the guard that holds.
public struct LogRedaction: Sendable {
    /// Words that make a key sensitive.
    public static let sensitiveWords: Set<String> = [
        "CODE", "TOKEN", "TOKENS", "SECRET", "SECRETS", "COOKIE", "COOKIES", "PASSWORD", "PASSWD",
        "PASSPHRASE", "CREDENTIAL", "CREDENTIALS", "AUTHORIZATION", "VERIFIER", "ASSERTION",
    ]

    /// Words after which `CODE` is a status, not a credential.
    public static let nonSecretCodeQualifiers: Set<String> = [
        "ERROR", "EXIT", "STATUS", "HTTP", "REASON", "RESPONSE", "RESULT",
    ]

    /// What a sensitive value becomes. The default reveals nothing; a daemon that links a hash may pass a
    /// truncated keyed hash, so that two lines about the same code can be matched.
    public let fingerprint: @Sendable (String) -> String

    /// Creates a redaction; the default fingerprint hides every sensitive value entirely.
    public init(fingerprint: @escaping @Sendable (String) -> String = { _ in "[redacted]" }) {
        self.fingerprint = fingerprint
    }

    /// Whether the value of metadata key `key` must not be logged.
    public func isSensitive(key: String) -> Bool {
        Self.isSensitive(key: key)
    }

    static func isSensitive(key: String) -> Bool {
        isSensitive(words: JournalFieldName.words(in: key))
    }

    /// The value to log for metadata key `key`.
    public func redact(key: String, value: String) -> String {
        Self.isSensitive(key: key) ? fingerprint(value) : scrub(value)
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
        CredentialScrubber(isSensitive: Self.isSensitive(key:), fingerprint: fingerprint)
    }

    /// The lower-case bytes of `sensitiveWords`.
    private static let sensitiveWordBytes: [[UInt8]] = sensitiveWords.map { Array($0.lowercased().utf8) }

    /// False only when the name cannot be sensitive: a sensitive name holds one of `sensitiveWords` in
    /// some case, since its words are runs of its letters. Lets the scrubber pass over the names in text
    /// (`https:` in every URL) without building a string and splitting it into words.
    static func mayBeSensitive(name: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        sensitiveWordBytes.contains { word in
            guard name.count >= word.count else { return false }
            var start = name.startIndex
            while start + word.count <= name.endIndex {
                if word.indices.allSatisfy({ name[start + $0] | 0x20 == word[$0] }) { return true }
                start += 1
            }
            return false
        }
    }

    static func isSensitive(words: [String]) -> Bool {
        for (index, word) in words.enumerated() where sensitiveWords.contains(word) {
            if word == "CODE", index > 0, nonSecretCodeQualifiers.contains(words[index - 1]) { continue }
            return true
        }
        return false
    }
}
