import Testing

@testable import Systemd

@Suite struct LogRedactionTests {
    let redaction = LogRedaction()

    @Test(arguments: [
        "code", "authCode", "auth_code", "authorization-code", "access_token", "refreshToken", "id_token",
        "client-secret", "clientSecret", "Set-Cookie", "cookies", "password", "db.password", "code_verifier",
        "Authorization", "oauth.token", "PASSWD", "samlAssertion",
    ])
    func sensitiveKeys(key: String) {
        #expect(redaction.isSensitive(key: key))
        #expect(redaction.redact(key: key, value: "4/0AbCdEf") == "[redacted:9B]")
        #expect(redaction.scrub("\(key)=4/0AbCdEf") == "\(key)=[redacted:9B]")
    }

    @Test(arguments: ["https", "state", "app", "handoff-id", "redirect_uri", "peer.uid", "x"])
    func namesWithoutASensitiveWordAreLeftAlone(name: String) {
        #expect(redaction.scrub("\(name)=4/0AbCdEf") == "\(name)=4/0AbCdEf")
    }

    @Test(arguments: [
        "app", "state", "handoff-id", "error_code", "exitCode", "httpStatusCode", "reason-code", "encode",
        "qrcode", "rule", "outcome", "peer.uid", "redirect_uri", "client_id",
    ])
    func ordinaryKeys(key: String) {
        #expect(!redaction.isSensitive(key: key))
        #expect(redaction.redact(key: key, value: "no_app") == "no_app")
    }

    @Test(arguments: [
        (
            "opened https://oauth-redirect.googleusercontent.com/a/com.google.OPA?code=4/0AbC-d_e&state=xyz",
            "opened https://oauth-redirect.googleusercontent.com/a/com.google.OPA?code=[redacted:10B]&state=xyz"
        ),
        (
            "https://h/a/x?state=s1&code=abc#frag",
            "https://h/a/x?state=s1&code=[redacted:3B]#frag"
        ),
        (
            "grant_type=authorization_code&code=SplxlOBeZQQYbYS6WxSbIA&redirect_uri=https%3A%2F%2Fx&code_verifier=v",
            "grant_type=authorization_code&code=[redacted:22B]&redirect_uri=https%3A%2F%2Fx&code_verifier=[redacted:1B]"
        ),
        (
            #"{"access_token":"2YotnFZFEjr1zCsicMWpAA","expires_in":3600,"refresh_token" : "tGzv3JOkF0XG5Qx2TlKWIA"}"#,
            #"{"access_token":"[redacted:22B]","expires_in":3600,"refresh_token" : "[redacted:22B]"}"#
        ),
        (
            #"{"client_secret":"a\"b","client_id":"c"}"#,
            #"{"client_secret":"[redacted:4B]","client_id":"c"}"#
        ),
        ("Authorization: Basic dXNlcjpwYXNz", "Authorization: Basic [redacted:12B]"),
        ("sent Authorization: Bearer mF_9.B5f-4.1JqM with", "sent Authorization: Bearer [redacted:15B] with"),
        ("token is Bearer mF_9.B5f-4.1JqM", "token is Bearer [redacted:15B]"),
        ("error=access_denied state=xyz exit_code=1", "error=access_denied state=xyz exit_code=1"),
        ("no app claims https://example.com/path?q=1", "no app claims https://example.com/path?q=1"),
        ("Basic setup finished", "Basic setup finished"),
        ("cookie=abc; Path=/", "cookie=[redacted:3B]; Path=/"),
        (#"code="a b\"c" state=s"#, "code=[redacted:8B] state=s"),
        (#"FlipResult(code: "4/0Ab", state: "s1")"#, #"FlipResult(code: "[redacted:5B]", state: "s1")"#),
        (#"Grant(refreshToken: Optional("r-1"), scope: nil)"#, #"Grant(refreshToken: Optional("[redacted:3B]"), scope: nil)"#),
        (#"Outcome(errorCode: "no_app")"#, #"Outcome(errorCode: "no_app")"#),
        (#"{"password":"never closed"#, #"{"password":"[redacted:12B]"#),
        ("Authorization: dXNlcjpwYXNz", "Authorization: [redacted:12B]"),
        ("Bearer", "Bearer"),
        ("a Bearer ", "a Bearer "),
        ("Unbearer abc", "Unbearer abc"),
        ("héllo wörld ?code=ä1&x=ü", "héllo wörld ?code=[redacted:3B]&x=ü"),
        ("x==code=1", "x==code=[redacted:1B]"),
        ("Grant(code=abc, scope=s)", "Grant(code=[redacted:3B], scope=s)"),
        ("https://h/a/x?code=[redacted:37B]&state=s1", "https://h/a/x?code=[redacted:37B]&state=s1"),
        ("https://h/a/x?code=&state=s1", "https://h/a/x?code=&state=s1"),
    ])
    func scrubsCredentialsInsideText(text: String, expected: String) {
        #expect(redaction.scrub(text) == expected)
    }

    /// The scan skips eight bytes at a time where none can start a credential: each kind is still found at
    /// every offset from a word's start, after any text, in a value and appended to bytes alike.
    @Test(arguments: [
        ("?code=SECRET&x=1", "?code=[redacted:6B]&x=1"), ("\"token\": \"SECRET\"", "\"token\": \"[redacted:6B]\""),
        ("Bearer SECRET", "Bearer [redacted:6B]"), ("bearer SECRET", "bearer [redacted:6B]"),
        ("Authorization: Basic SECRET", "Authorization: Basic [redacted:6B]"),
    ])
    func findsCredentialsAtEveryOffset(credential: String, scrubbed: String) {
        for padding in ["", "é", "x-y_z.w/v", "ABCDEFGHIJKLMNOPQRSTUVWXYZ acdefghijklmnopqrstuvwxyz"] {
            for offset in 0..<17 {
                let prefix = String(String(repeating: padding, count: 17).prefix(offset)) + " "
                #expect(redaction.scrub(prefix + credential + " tail") == prefix + scrubbed + " tail")
                var bytes: [UInt8] = [1, 2, 3]
                Array((prefix + credential).utf8).withUnsafeBufferPointer { redaction.scrub(utf8: $0, appendingTo: &bytes) }
                #expect(bytes == [1, 2, 3] + Array((prefix + scrubbed).utf8))
            }
        }
    }

    @Test func usesTheFingerprintItIsGiven() {
        let redaction = LogRedaction(fingerprint: { "fp:\($0.utf8.count)" })
        #expect(redaction.redact(key: "code", value: "abcd") == "fp:4")
        #expect(redaction.scrub("https://h/?code=abcdef") == "https://h/?code=fp:6")
    }
}
