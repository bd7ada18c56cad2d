import AppFlipCore
import AppFlipProtocol
import Testing

/// Secrets in URLs are hidden however the parameter name is spelled, as every receiving app decodes it.
@Suite struct RedactionTests {
    @Test(arguments: [
        ("https://a.test/r?code=SECRET&state=s", "https://a.test/r?code=[redacted:6B]&state=s"),
        ("https://a.test/r?co%64e=SECRET&state=s", "https://a.test/r?co%64e=[redacted:6B]&state=s"),
        ("https://a.test/r?CO%44E=SECRET", "https://a.test/r?CO%44E=[redacted:6B]"),
        ("https://a.test/r?%63ode=SECRET#access%5Ftoken=T", "https://a.test/r?%63ode=[redacted:6B]#access%5Ftoken=[redacted:1B]"),
        // `+` is a space in a form: `client secret` has the word `secret`.
        ("https://a.test/r?client+secret=x&client_secret=SECRET", "https://a.test/r?client+secret=[redacted:1B]&client_secret=[redacted:6B]"),
        ("https://a.test/r?co%zze=SECRET", "https://a.test/r?co%zze=[redacted:6B]"),
        ("https://a.test/r?state=code&codex=1", "https://a.test/r?state=code&codex=1"),
        // A combining mark after `?` makes one character of the two, not one byte: a URL parser still sees
        // the query, and so does the redaction.
        ("https://a.test/r?\u{301}x=1&code=SECRET", "https://a.test/r?\u{301}x=1&code=[redacted:6B]"),
        ("https://a.test/r?code=SECRET&\u{301}", "https://a.test/r?code=[redacted:6B]&\u{301}"),
        ("https://a.test/r?a&&code=S#", "https://a.test/r?a&&code=[redacted:1B]#"),
        ("https://a.test/caf\u{E9}", "https://a.test/caf\u{E9}"),
        ("https://a.test/r?CODE=SECRET&Access_Token=T", "https://a.test/r?CODE=[redacted:6B]&Access_Token=[redacted:1B]"),
        // A Kelvin sign lower-cases to `k`, as a receiving app's Unicode lower-casing reads it.
        ("https://a.test/r?to\u{212A}en=SECRET", "https://a.test/r?to\u{212A}en=[redacted:6B]"),
        ("https://a.test/r?code=a=b&=x&code", "https://a.test/r?code=[redacted:3B]&=x&code"),
        // A second `?` is part of the query, a second `#` part of the fragment.
        ("https://a.test/r?x=1?code=2#y&code=3#code=4", "https://a.test/r?x=1?code=2#y&code=[redacted:8B]"),
        ("https://a.test/r?code=", "https://a.test/r?code=[redacted:0B]"),
        // Names are read in words, as the journal reads its keys: any sensitive word hides the value,
        // camelCase or not, and `code` after `error` names no credential.
        ("https://a.test/r?authCode=SECRET&error_code=x", "https://a.test/r?authCode=[redacted:6B]&error_code=x"),
        ("https://a.test/r?errorCode=x&cOdE=SECRET", "https://a.test/r?errorCode=x&cOdE=[redacted:6B]"),
        ("https://a.test/r#token_type=Bearer&expires_in=1", "https://a.test/r#token_type=[redacted:6B]&expires_in=1"),
    ])
    func aSecretParameterIsRedactedHoweverItsNameIsEncoded(url: String, shown: String) {
        #expect(Redaction.redact(url: url) == shown)
    }

    /// The byte walk agrees with the definition, written the plain way, on every combination of tricky
    /// names, values and separators.
    @Test func theByteWalkAgreesWithThePlainDefinitionEverywhere() {
        let names = [
            "code", "CoDe", "co%64e", "co%zz", "client+secret", "to\u{212A}en", "state", "", "é", "\u{301}", "authCode", "error_code",
        ]
        let values = ["", "S", "a=b", "é%"]
        let separators = ["?", "#", "&", "?x&", "#y?"]
        var checked = 0
        for name in names {
            for value in values {
                for first in separators {
                    for second in separators {
                        let url = "https://a.test/p\(first)\(name)=\(value)\(second)\(name)&\(value)"
                        #expect(Redaction.redact(url: url) == Self.plainRedaction(url), "\(url)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked == names.count * values.count * separators.count * separators.count)
    }

    /// The definition: split at the first `?` or `#`; the query runs to the next `#`, the fragment to the
    /// end; each `&`-separated parameter whose form-decoded name is a secret one (or cannot be decoded)
    /// shows its value's length in bytes instead of the value.
    static func plainRedaction(_ url: String) -> String {
        let bytes = Array(url.utf8)
        guard let start = bytes.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) else { return url }
        var shown = Array(bytes[..<start])
        var index = start
        while index < bytes.count {
            let separator = bytes[index]
            shown.append(separator)
            index += 1
            let end = separator == UInt8(ascii: "?") ? (bytes[index...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.count) : bytes.count
            let parameters = bytes[index..<end].split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false)
            for (number, parameter) in parameters.enumerated() {
                if number > 0 { shown.append(UInt8(ascii: "&")) }
                guard let equals = parameter.firstIndex(of: UInt8(ascii: "=")) else {
                    shown += parameter
                    continue
                }
                let name = String(decoding: parameter[..<equals], as: UTF8.self)
                let secret = PercentEncoding.formDecode(name).map { SecretNames.isSecret(name: $0) } ?? true
                let valueBytes = parameter.count - (equals - parameter.startIndex) - 1
                shown += secret ? Array(parameter[...equals]) + Array("[redacted:\(valueBytes)B]".utf8) : Array(parameter)
            }
            index = end
        }
        return String(decoding: shown, as: UTF8.self)
    }
}
