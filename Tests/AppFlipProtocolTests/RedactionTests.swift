import AppFlipProtocol
import Testing

/// Secrets in URLs are hidden however the parameter name is spelled, as every receiving app decodes it.
@Suite struct RedactionTests {
    @Test(arguments: [
        ("https://a.test/r?code=SECRET&state=s", "https://a.test/r?code=[redacted:6B]&state=s"),
        ("https://a.test/r?co%64e=SECRET&state=s", "https://a.test/r?co%64e=[redacted:6B]&state=s"),
        ("https://a.test/r?CO%44E=SECRET", "https://a.test/r?CO%44E=[redacted:6B]"),
        ("https://a.test/r?%63ode=SECRET#access%5Ftoken=T", "https://a.test/r?%63ode=[redacted:6B]#access%5Ftoken=[redacted:1B]"),
        ("https://a.test/r?client+secret=x&client_secret=SECRET", "https://a.test/r?client+secret=x&client_secret=[redacted:6B]"),
        ("https://a.test/r?co%zze=SECRET", "https://a.test/r?co%zze=[redacted:6B]"),
        ("https://a.test/r?state=code&codex=1", "https://a.test/r?state=code&codex=1"),
        // A combining mark after `?` makes one character of the two, not one byte: a URL parser still sees
        // the query, and so does the redaction.
        ("https://a.test/r?\u{301}x=1&code=SECRET", "https://a.test/r?\u{301}x=1&code=[redacted:6B]"),
        ("https://a.test/r?code=SECRET&\u{301}", "https://a.test/r?code=[redacted:6B]&\u{301}"),
        ("https://a.test/r?a&&code=S#", "https://a.test/r?a&&code=[redacted:1B]#"),
        ("https://a.test/caf\u{E9}", "https://a.test/caf\u{E9}"),
    ])
    func aSecretParameterIsRedactedHoweverItsNameIsEncoded(url: String, shown: String) {
        #expect(Redaction.redact(url: url) == shown)
    }
}
