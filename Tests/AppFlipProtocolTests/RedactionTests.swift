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
    ])
    func aSecretParameterIsRedactedHoweverItsNameIsEncoded(url: String, shown: String) {
        #expect(Redaction.redact(url: url) == shown)
    }
}
