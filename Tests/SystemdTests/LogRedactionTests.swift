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
        #expect(redaction.redact(key: key, value: "4/0AbCdEf") == "[redacted]")
        // The scrubber's quick check, which skips names before building them, lets every one of these by.
        #expect(Self.mayBeSensitive(key))
        #expect(redaction.scrub("\(key)=4/0AbCdEf") == "\(key)=[redacted]")
    }

    @Test(arguments: ["https", "state", "app", "handoff-id", "redirect_uri", "peer.uid", "x"])
    func namesWithoutASensitiveWordAreSkippedUnbuilt(name: String) {
        #expect(!Self.mayBeSensitive(name))
        #expect(redaction.scrub("\(name)=4/0AbCdEf") == "\(name)=4/0AbCdEf")
    }

    static func mayBeSensitive(_ name: String) -> Bool {
        Array(name.utf8).withUnsafeBufferPointer { LogRedaction.mayBeSensitive(name: $0[...]) }
    }

    /// The quick check answers as its plain definition does, one sensitive word in any ASCII case inside the
    /// name, on names put together from words, their parts and separators (a fixed sequence of choices).
    @Test func quickCheckAgreesWithItsDefinition() {
        let pieces = [
            "code", "CoDe", "cod", "ode", "tok", "Tokens", "secre", "SECRET", "pass", "passwd", "PassPhrase",
            "cookie", "cred", "Credential", "authoriz", "authorization", "assert", "ASSERTION", "verifie",
            "verifier", "_", "-", ".", "x", "é", "1", "c", "t", "@", "[",
        ]
        let words = LogRedaction.sensitiveWords.map { Array($0.lowercased().utf8) }
        func definition(_ name: String) -> Bool {
            let folded = name.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
            return words.contains { word in
                folded.count >= word.count && (0...folded.count - word.count).contains { folded[$0..<$0 + word.count].elementsEqual(word) }
            }
        }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var sensitive = 0
        for _ in 0..<2_000 {
            let name = (0...next(4)).map { _ in pieces[next(pieces.count)] }.joined()
            #expect(Self.mayBeSensitive(name) == definition(name), "\(name)")
            if definition(name) { sensitive += 1 }
        }
        #expect(sensitive > 200 && sensitive < 1_800)  // both answers were asked for
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
            "opened https://oauth-redirect.googleusercontent.com/a/com.google.OPA?code=[redacted]&state=xyz"
        ),
        (
            "https://h/a/x?state=s1&code=abc#frag",
            "https://h/a/x?state=s1&code=[redacted]#frag"
        ),
        (
            "grant_type=authorization_code&code=SplxlOBeZQQYbYS6WxSbIA&redirect_uri=https%3A%2F%2Fx&code_verifier=v",
            "grant_type=authorization_code&code=[redacted]&redirect_uri=https%3A%2F%2Fx&code_verifier=[redacted]"
        ),
        (
            #"{"access_token":"2YotnFZFEjr1zCsicMWpAA","expires_in":3600,"refresh_token" : "tGzv3JOkF0XG5Qx2TlKWIA"}"#,
            #"{"access_token":"[redacted]","expires_in":3600,"refresh_token" : "[redacted]"}"#
        ),
        (
            #"{"client_secret":"a\"b","client_id":"c"}"#,
            #"{"client_secret":"[redacted]","client_id":"c"}"#
        ),
        ("Authorization: Basic dXNlcjpwYXNz", "Authorization: Basic [redacted]"),
        ("sent Authorization: Bearer mF_9.B5f-4.1JqM with", "sent Authorization: Bearer [redacted] with"),
        ("token is Bearer mF_9.B5f-4.1JqM", "token is Bearer [redacted]"),
        ("error=access_denied state=xyz exit_code=1", "error=access_denied state=xyz exit_code=1"),
        ("no app claims https://example.com/path?q=1", "no app claims https://example.com/path?q=1"),
        ("Basic setup finished", "Basic setup finished"),
        ("cookie=abc; Path=/", "cookie=[redacted]; Path=/"),
        (#"code="a b\"c" state=s"#, "code=[redacted] state=s"),
        (#"FlipResult(code: "4/0Ab", state: "s1")"#, #"FlipResult(code: "[redacted]", state: "s1")"#),
        (#"Grant(refreshToken: Optional("r-1"), scope: nil)"#, #"Grant(refreshToken: Optional("[redacted]"), scope: nil)"#),
        (#"Outcome(errorCode: "no_app")"#, #"Outcome(errorCode: "no_app")"#),
        (#"{"password":"never closed"#, #"{"password":"[redacted]"#),
        ("Authorization: dXNlcjpwYXNz", "Authorization: [redacted]"),
        ("Bearer", "Bearer"),
        ("a Bearer ", "a Bearer "),
        ("Unbearer abc", "Unbearer abc"),
        ("héllo wörld ?code=ä1&x=ü", "héllo wörld ?code=[redacted]&x=ü"),
        ("x==code=1", "x==code=[redacted]"),
        ("Grant(code=abc, scope=s)", "Grant(code=[redacted], scope=s)"),
        ("https://h/a/x?code=[redacted:37B]&state=s1", "https://h/a/x?code=[redacted:37B]&state=s1"),
        ("https://h/a/x?code=&state=s1", "https://h/a/x?code=&state=s1"),
    ])
    func scrubsCredentialsInsideText(text: String, expected: String) {
        #expect(redaction.scrub(text) == expected)
    }

    /// The scan skips eight bytes at a time where none can start a credential: each kind is still found at
    /// every offset from a word's start, after any text, in a value and appended to bytes alike.
    @Test(arguments: [
        ("?code=SECRET&x=1", "?code=[redacted]&x=1"), ("\"token\": \"SECRET\"", "\"token\": \"[redacted]\""),
        ("Bearer SECRET", "Bearer [redacted]"), ("bearer SECRET", "bearer [redacted]"),
        ("Authorization: Basic SECRET", "Authorization: Basic [redacted]"),
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
