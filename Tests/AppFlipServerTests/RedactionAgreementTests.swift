import AppFlipProtocol
import Systemd
import Testing

/// The daemon's URL redaction (replies, `watch` events, handoff records) and the journal's scrubber share
/// one vocabulary: a URL shows the same parameters, and hides the same ones behind the same placeholder,
/// on either path.
@Suite struct RedactionAgreementTests {
    @Test(arguments: [
        (
            "https://oauth-redirect.googleusercontent.com/a/com.google.OPA?code=4/0AbC-d_e&state=xyz",
            "https://oauth-redirect.googleusercontent.com/a/com.google.OPA?code=[redacted:10B]&state=xyz"
        ),
        (
            "https://h/cb?authCode=abc123&error_code=no_app&errorCode=denied&exitCode=1&state=s1",
            "https://h/cb?authCode=[redacted:6B]&error_code=no_app&errorCode=denied&exitCode=1&state=s1"
        ),
        (
            "https://h/cb#access_token=2YotnFZFEjr1zCsicMWpAA&token_type=Bearer&expires_in=3600&id_token=e.y.J",
            "https://h/cb#access_token=[redacted:22B]&token_type=[redacted:6B]&expires_in=3600&id_token=[redacted:5B]"
        ),
        (
            "https://h/cb?client_secret=s3cr3t&Code_Verifier=v-1&redirect_uri=https%3A%2F%2Fx&PASSWORD=pw&client_id=c",
            "https://h/cb?client_secret=[redacted:6B]&Code_Verifier=[redacted:3B]&redirect_uri=https%3A%2F%2Fx&PASSWORD=[redacted:2B]&client_id=c"
        ),
        ("https://h/cb?state=code&encode=1&qrcode=2", "https://h/cb?state=code&encode=1&qrcode=2"),
    ])
    func bothPathsHideTheSameParametersTheSameWay(url: String, shown: String) {
        #expect(Redaction.redact(url: url) == shown)
        #expect(LogRedaction().scrub(url) == shown)
        // The journal scrubs again what the daemon has already redacted, and leaves it as it is.
        #expect(LogRedaction().scrub(shown) == shown)
    }

    /// A name hides a URL parameter exactly when it hides a log key's value, with the same placeholder.
    @Test(arguments: [
        "code", "authCode", "auth_code", "access_token", "refreshToken", "client-secret", "Set-Cookie", "code_verifier", "CoDe",
        "samlAssertion", "error_code", "errorCode", "exitCode", "httpStatusCode", "state", "encode", "qrcode", "redirect_uri",
    ])
    func aParameterAndAKeyOfOneNameAgree(name: String) {
        let redaction = LogRedaction()
        let url = "https://h/cb?\(name)=4/0AbCdEf&x=1"
        let hidden = "https://h/cb?\(name)=[redacted:9B]&x=1"
        #expect(Redaction.redact(url: url) == (redaction.isSensitive(key: name) ? hidden : url))
        #expect(redaction.scrub(url) == Redaction.redact(url: url))
        #expect(redaction.redact(key: name, value: "4/0AbCdEf") == (redaction.isSensitive(key: name) ? "[redacted:9B]" : "4/0AbCdEf"))
    }
}
