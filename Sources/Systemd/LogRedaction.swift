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

    public init(fingerprint: @escaping @Sendable (String) -> String = { _ in "[redacted]" }) {
        self.fingerprint = fingerprint
    }

    /// Whether the value of metadata key `key` must not be logged.
    public func isSensitive(key: String) -> Bool {
        Self.isSensitive(words: JournalFieldName.words(in: key))
    }

    /// The value to log for metadata key `key`.
    public func redact(key: String, value: String) -> String {
        isSensitive(key: key) ? fingerprint(value) : scrub(value)
    }

    /// `text` with every embedded credential replaced by its fingerprint.
    public func scrub(_ text: String) -> String {
        var text = text
        if text.contains("=") {
            text.replace(Self.assignment) { match in
                isSensitive(key: String(match.output.name))
                    ? match.output.lead + match.output.name + "=" + fingerprint(String(match.output.value))
                    : match.output.0
            }
        }
        if text.contains("\"") {
            text.replace(Self.quotedMember) { match in
                isSensitive(key: String(match.output.name))
                    ? match.output.head + fingerprint(String(match.output.value)) + "\""
                    : match.output.0
            }
        }
        if text.contains("uthorization") {
            text.replace(Self.authorizationHeader) { match in
                match.output.head + fingerprint(String(match.output.credential))
            }
        }
        if text.contains("earer") {
            text.replace(Self.bearerCredential) { match in
                match.output.scheme + " " + fingerprint(String(match.output.credential))
            }
        }
        return text
    }

    static func isSensitive(words: [String]) -> Bool {
        for (index, word) in words.enumerated() where sensitiveWords.contains(word) {
            if word == "CODE", index > 0, nonSecretCodeQualifiers.contains(words[index - 1]) { continue }
            return true
        }
        return false
    }

    // Regex is not Sendable, but sharing one is safe: its compiled program is initialised atomically
    // once, and every match runs on a processor of its own.

    // `name=value` at the start, or after `?`, `&`, `;`, `#` or white space; the value may be quoted.
    nonisolated(unsafe) private static let assignment =
        #/(?<lead>^|[?&;#\s])(?<name>[A-Za-z0-9_.\-]+)=(?<value>"(?:[^"\\]|\\.)*"|[^&#;\s"'<>]*)/#
    // `"name": "value"` (JSON) and `name: "value"` or `name: Optional("value")` (Swift descriptions),
    // with escapes inside the value.
    nonisolated(unsafe) private static let quotedMember =
        #/(?<head>"?(?<name>[A-Za-z0-9_.\-]{1,64})"?\s*:\s*(?:Optional\()?")(?<value>(?:[^"\\]|\\.)*)"/#
    // `Authorization: <scheme> <credential>` as an HTTP header, any scheme.
    nonisolated(unsafe) private static let authorizationHeader =
        #/(?<head>[Aa]uthorization\s*:\s*(?:[A-Za-z]+\s+)?)(?<credential>[A-Za-z0-9._~+\/\-]+=*)/#
    // A bearer token anywhere (RFC 6750's b64token).
    nonisolated(unsafe) private static let bearerCredential =
        #/(?<scheme>\b[Bb]earer)\s+(?<credential>[A-Za-z0-9._~+\/\-]+=*)/#
}
