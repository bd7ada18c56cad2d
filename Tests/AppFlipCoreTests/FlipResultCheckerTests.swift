import Testing

@testable import AppFlipCore

@Suite struct FlipResultCheckerTests {
    static let base = FlipFixtures.assistant.string
    static let checker = FlipResultChecker(redirectURI: base, state: "s+1")

    @Test func acceptsACodeWithItsState() {
        let verdict = Self.checker.check(Self.base + "?code=abc&state=s%2B1")
        #expect(verdict.isValid && verdict.outcome == .code("abc") && verdict.deviations.isEmpty)
        #expect(verdict.description == "valid result: code (3 bytes, redacted)")
    }

    @Test(arguments: FlipErrorCode.allCases)
    func acceptsEachErrorWithItsState(error: FlipErrorCode) {
        let verdict = Self.checker.check(Self.base + "?error=\(error.rawValue)&state=s%2B1")
        #expect(verdict.isValid && verdict.outcome == .error(error, description: nil) && verdict.deviations.isEmpty)
    }

    @Test func anErrorWithoutStateIsADeviationNotAViolation() {
        // The seed's returnError sample sends exactly this.
        let verdict = Self.checker.check(Self.base + "?error=invalid_request&error_description=Invalid%20Request")
        #expect(verdict.isValid)
        #expect(verdict.outcome == .error(.invalidRequest, description: "Invalid Request"))
        #expect(verdict.deviations == [.stateMissingWithError])
    }

    typealias V = FlipResultViolation

    @Test(arguments: [
        ("not-a-url", [V.malformedURL(URLSyntaxError(.missingScheme, at: 0))]),
        ("https://h/a b", [V.malformedURL(URLSyntaxError(.invalidCharacter(" "), at: 11))]),
        ("https://evil.test/a/com.google.OPA?code=abc&state=s%2B1", [.notTheRedirectURI]),
        (base + "/?code=abc&state=s%2B1", [.notTheRedirectURI]),
        ("https://OAUTH-redirect.googleusercontent.com/a/com.google.OPA?code=abc&state=s%2B1", [.notTheRedirectURI]),
        (base + "?code=abc&state=s%2B1#frag", [.fragment]),
        (base, [.noQuery]),
        (base + "#code=abc&state=s%2B1", [.fragment, .noQuery]),
        (base + "?", [.neitherCodeNorError]),
        (base + "?state=s%2B1", [.neitherCodeNorError]),
        (base + "?code=abc&error=cancelled&state=s%2B1", [.bothCodeAndError]),
        (base + "?code=&state=s%2B1", [.emptyCode]),
        (base + "?code=abc&code=abc&state=s%2B1", [.duplicated("code", count: 2)]),
        (base + "?code=abc&state=s%2B1&state=s%2B1", [.duplicated("state", count: 2)]),
        (base + "?error=cancelled&error=cancelled", [.duplicated("error", count: 2)]),
        (base + "?error=access_denied&state=s%2B1", [.unknownError("access_denied")]),
        (base + "?error=Cancelled&state=s%2B1", [.unknownError("Cancelled")]),
        (base + "?error=&state=s%2B1", [.unknownError("")]),
        (base + "?code=abc", [.stateMissing]),
        (base + "?code=abc&state=s%2B2", [.stateMismatch(literalPlus: false)]),
        (base + "?code=abc&state=s+1", [.stateMismatch(literalPlus: true)]),
        (base + "?code=abc&state=", [.stateMismatch(literalPlus: false)]),
        (base + "?code=abc&state=s%2B1&error_description=x", [.errorDescriptionWithCode]),
        (base + "?code=%FF&state=s%2B1", [.notUTF8(parameter: "code")]),
        (base + "?code=abc&state=s%2B1&%FF=1", [.notUTF8(parameter: nil)]),
    ])
    func reportsEachViolation(url: String, expected: [FlipResultViolation]) {
        let verdict = Self.checker.check(url)
        #expect(verdict.violations == expected)
        #expect(!verdict.isValid)
    }

    @Test func reportsEveryViolationAtOnce() {
        let verdict = Self.checker.check("https://evil.test/?code=&error=nope&code=x&extra=1#f")
        #expect(
            verdict.violations == [
                .notTheRedirectURI, .fragment, .duplicated("code", count: 2),
                .bothCodeAndError, .unknownError("nope"), .stateMissing,
            ]
        )
        #expect(verdict.outcome == nil)
        #expect(verdict.description.split(separator: "\n").count == 7)
    }

    /// RFC 6749 §4.1.2: the client MUST ignore unrecognized response parameters, so `appflip flip` and the
    /// audit's `partner.result-shape` hold a result with one to the same rule.
    @Test func anUnrecognisedParameterIsIgnored() {
        let verdict = Self.checker.check(Self.base + "?code=abc&state=s%2B1&scope=profile&access_token=t")
        #expect(verdict.isValid && verdict.outcome == .code("abc"))
        #expect(verdict.violations.isEmpty && verdict.deviations.isEmpty)
    }

    @Test func theVerdictNeverPrintsTheCode() {
        let verdict = FlipResultChecker(redirectURI: Self.base, state: "s").check(Self.base + "?code=top-secret&state=wrong")
        #expect(verdict.outcome == .code("top-secret"))
        #expect(!verdict.description.contains("top-secret"))
    }

    @Test func comparesTheStateByteForByte() {
        let checker = FlipResultChecker(redirectURI: Self.base, state: "caf\u{E9}")
        #expect(checker.check(Self.base + "?code=a&state=caf%C3%A9").isValid)
        // "cafe\u{301}" == "caf\u{E9}" in Swift, but it is not the state that was sent.
        #expect(checker.check(Self.base + "?code=a&state=cafe%CC%81").violations == [.stateMismatch(literalPlus: false)])
    }
}
