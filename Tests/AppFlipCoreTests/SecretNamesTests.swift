import Testing

@testable import AppFlipCore

/// The one rule for secret names, which the daemon's URL redaction and its journal both follow.
@Suite struct SecretNamesTests {
    @Test(arguments: [
        "code", "authCode", "auth_code", "authorization-code", "access_token", "refreshToken", "id_token", "client-secret",
        "clientSecret", "Set-Cookie", "cookies", "password", "db.password", "code_verifier", "Authorization", "oauth.token",
        "PASSWD", "samlAssertion", "client secret", "CoDe", "cOdE", "to\u{212A}en", "\u{E9}code",
    ])
    func secretNames(name: String) {
        #expect(SecretNames.isSecret(name: name))
    }

    @Test(arguments: [
        "app", "state", "handoff-id", "error_code", "errorCode", "exitCode", "httpStatusCode", "reason-code", "encode", "qrcode",
        "rule", "outcome", "peer.uid", "redirect_uri", "client_id", "", "\u{E9}", "https", "x",
    ])
    func ordinaryNames(name: String) {
        #expect(!SecretNames.isSecret(name: name))
    }

    @Test(arguments: [
        ("handoffID", ["HANDOFF", "ID"]), ("URLPath", ["URL", "PATH"]), ("handoff-id", ["HANDOFF", "ID"]),
        ("HandoffId", ["HANDOFF", "ID"]), ("peer.uid", ["PEER", "UID"]), ("latency-ms", ["LATENCY", "MS"]),
        ("oauth2Token", ["OAUTH2", "TOKEN"]), ("CoDe", ["CO", "DE"]), ("to\u{212A}en", ["TO", "EN"]), ("-_.", []),
    ])
    func splitsNamesIntoWords(name: String, words: [String]) {
        #expect(SecretNames.words(in: name) == words)
    }

    /// The byte-level rule answers as its plain definition, over sets of strings, does: a sensitive word,
    /// not a `CODE` after a qualifier, among the name's words as written or lower-cased (its ASCII letters
    /// alone, or all of them as Unicode lower-cases them).
    @Test func theRuleAgreesWithItsPlainDefinition() {
        func plain(_ words: [String]) -> Bool {
            words.indices.contains { index in
                SecretNames.sensitiveWords.contains(words[index])
                    && !(words[index] == "CODE" && index > 0 && SecretNames.nonSecretCodeQualifiers.contains(words[index - 1]))
            }
        }
        var secret = 0
        for name in Self.names(count: 2_000) {
            let asciiLowered = String(decoding: name.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
            let definition = [name, asciiLowered, name.lowercased()].contains { plain(SecretNames.words(in: $0)) }
            #expect(SecretNames.isSecret(name: name) == definition, "\(name)")
            if definition { secret += 1 }
        }
        #expect(secret > 200 && secret < 1_800)  // both answers were asked for
    }

    /// The quick check answers as its plain definition does, one sensitive word in any ASCII case inside the
    /// name, and lets every secret ASCII name by.
    @Test func quickCheckAgreesWithItsDefinition() {
        let words = SecretNames.sensitiveWords.map { Array($0.lowercased().utf8) }
        func definition(_ name: String) -> Bool {
            let folded = name.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
            return words.contains { word in
                folded.count >= word.count && (0...folded.count - word.count).contains { folded[$0..<$0 + word.count].elementsEqual(word) }
            }
        }
        var sensitive = 0
        for name in Self.names(count: 2_000) {
            let quick = Array(name.utf8).withUnsafeBytes { SecretNames.mayBeSensitive(name: $0) }
            #expect(quick == definition(name), "\(name)")
            if name.utf8.allSatisfy({ $0 < 0x80 }), SecretNames.isSecret(name: name) { #expect(quick, "\(name)") }
            if quick { sensitive += 1 }
        }
        #expect(sensitive > 200 && sensitive < 1_800)
    }

    @Test(arguments: [("", "[redacted:0B]"), ("abc", "[redacted:3B]"), ("\u{E9}", "[redacted:2B]"), ("4/0AbCdEf", "[redacted:9B]")])
    func aSecretIsShownAsItsLength(value: String, shown: String) {
        #expect(SecretNames.placeholder(for: value) == shown)
        var bytes: [UInt8] = [1]
        SecretNames.appendPlaceholder(byteCount: value.utf8.count, to: &bytes)
        #expect(bytes == [1] + Array(shown.utf8))
    }

    /// Names put together from words, their parts, their qualifiers and separators (a fixed sequence of
    /// choices).
    static func names(count: Int) -> [String] {
        let pieces = [
            "code", "CoDe", "Code", "cod", "ode", "tok", "Tokens", "secre", "SECRET", "pass", "passwd", "PassPhrase", "cookie", "cred",
            "Credential", "authoriz", "authorization", "assert", "ASSERTION", "verifie", "verifier", "error", "Error", "HTTP", "status",
            "_", "-", ".", "x", "X", "\u{E9}", "1", "c", "t", "@", "[", "\u{212A}",
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        return (0..<count).map { _ in (0...next(4)).map { _ in pieces[next(pieces.count)] }.joined() }
    }
}
