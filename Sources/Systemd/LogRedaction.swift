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

    /// The lower-case bytes of `sensitiveWords` that hold no other one (`TOKENS` holds `TOKEN`), by their
    /// first letter: `a` at 0 to `z` at 25.
    private static let sensitiveWordsByInitial: [[[UInt8]]] = {
        let words = sensitiveWords.map { $0.lowercased() }
        let shortest = words.filter { word in !words.contains { $0 != word && word.contains($0) } }
        var byInitial = [[[UInt8]]](repeating: [], count: 26)
        for word in shortest.sorted() { byInitial[Int(word.utf8.first! - UInt8(ascii: "a"))].append(Array(word.utf8)) }
        return byInitial
    }()

    /// One bit per letter (`a` the lowest) that starts one of `sensitiveWordsByInitial`.
    private static let sensitiveInitials: UInt32 = sensitiveWordsByInitial.indices.reduce(0) { bits, letter in
        sensitiveWordsByInitial[letter].isEmpty ? bits : bits | 1 << UInt32(letter)
    }

    /// False only when the name cannot be sensitive: a sensitive name holds one of `sensitiveWords` in
    /// some case, since its words are runs of its letters. Lets the scrubber pass over the names in text
    /// (`https:` in every URL) without building a string and splitting it into words. One test per byte
    /// of the name; words are compared only where one's first letter stands (sliding each of the fifteen
    /// words over the name was a sixth of the log writer's work per handoff).
    static func mayBeSensitive(name: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        let initials = sensitiveInitials
        var start = name.startIndex
        while start < name.endIndex {
            let letter = (name[start] | 0x20) &- UInt8(ascii: "a")  // 26 and above for all but letters
            if letter < 26, initials & 1 << UInt32(letter) != 0 {
                for word in sensitiveWordsByInitial[Int(letter)] where holds(word, at: start, in: name) { return true }
            }
            start += 1
        }
        return false
    }

    /// Whether `name` holds the lower-case `word` at `start`, in any case; its first letter is known to match.
    private static func holds(_ word: [UInt8], at start: Int, in name: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard name.endIndex - start >= word.count else { return false }
        for offset in 1..<word.count where name[start + offset] | 0x20 != word[offset] { return false }
        return true
    }

    static func isSensitive(words: [String]) -> Bool {
        for (index, word) in words.enumerated() where sensitiveWords.contains(word) {
            if word == "CODE", index > 0, nonSecretCodeQualifiers.contains(words[index - 1]) { continue }
            return true
        }
        return false
    }
}
