import Foundation
import Testing

@testable import AppFlipCore

@Suite struct FlipResultTests {
    static let redirect = FlipFixtures.allowed(FlipFixtures.assistant)
    static let base = FlipFixtures.assistant.string

    @Test func buildsACodeResult() {
        #expect(
            FlipResult.code("4/0Ab-c_d.e~f", state: "nonce-1").url(appendingTo: Self.redirect)
                == Self.base + "?code=4%2F0Ab-c_d.e~f&state=nonce-1"
        )
    }

    @Test func buildsErrorResultsWithStateWheneverOneWasReceived() {
        #expect(
            FlipResult.error(.cancelled, description: nil, state: "s").url(appendingTo: Self.redirect)
                == Self.base + "?error=cancelled&state=s"
        )
        #expect(
            FlipResult.error(.unrecoverable, description: "Account disabled", state: nil).url(appendingTo: Self.redirect)
                == Self.base + "?error=unrecoverable&error_description=Account%20disabled"
        )
        #expect(
            FlipResult.error(.invalidRequest, description: "Invalid Request", state: "s").url(appendingTo: Self.redirect)
                == Self.base + "?error=invalid_request&error_description=Invalid%20Request&state=s"
        )
    }

    @Test func neverLogsTheCode() {
        let result = FlipResult.code("secret-code-value", state: "s")
        #expect(!result.description.contains("secret") && result.description.contains("17 bytes"))
    }

    @Test func encodesOnlyUnreservedCharactersLiterally() {
        for byte in UInt8(0)...UInt8(0x7F) {
            let string = String(UnicodeScalar(byte))
            let unreserved = byte.isASCIILetter || byte.isASCIIDigit || "-._~".utf8.contains(byte)
            let expected = unreserved ? string : "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            #expect(PercentEncoding.encodeStrictly(string) == expected, "byte \(byte)")
        }
        #expect(PercentEncoding.encodeStrictly("é🙂") == "%C3%A9%F0%9F%99%82")
        #expect(PercentEncoding.encodeStrictly("") == "")
    }

    static let hostileStates = [
        "a+b", "a b", "a&b=c", "x#y", "100%", "%zz", "%2", "%25", "%2B", "a/b?c", "\"quoted\" 'single'",
        "🙂 emoji 👩‍👩‍👧", "+&=#%/? ", "é (NFC)", "e\u{301} (NFD)", "\u{212A}", "tab\there", "line\nbreak", "nul\u{0}",
        "==", "&&", "state=evil&code=evil", "", "~-._", "日本語", "\u{FEFF}bom", "\\back\\slash",
    ]

    @Test(arguments: hostileStates)
    func theStateComesBackByteForByteThroughFoundation(state: String) throws {
        let url = FlipResult.code("c", state: state).url(appendingTo: Self.redirect)
        let items = try #require(URLComponents(string: url)?.queryItems)
        #expect(items.count == 2)
        let decoded = try #require(items.first { $0.name == "state" }?.value)
        #expect(Array(decoded.utf8) == FlipFixtures.foundationDecoding(of: state))
    }

    /// Not ours to fix, but users must know: a state that starts with U+FEFF loses it in Foundation, while
    /// a form decoder (and `FlipResultChecker`) keeps it.
    @Test func foundationDropsALeadingByteOrderMark() throws {
        let url = FlipResult.code("c", state: "\u{FEFF}x\u{FEFF}").url(appendingTo: Self.redirect)
        #expect(url.hasSuffix("state=%EF%BB%BFx%EF%BB%BF"))
        let foundation = try #require(URLComponents(string: url)?.queryItems?.last?.value)
        #expect(Array(foundation.utf8) == [0x78, 0xEF, 0xBB, 0xBF])
        #expect(FlipResultChecker(redirectURI: Self.base, state: "\u{FEFF}x\u{FEFF}").check(url).isValid)
    }

    @Test(arguments: hostileStates)
    func theStateComesBackByteForByteThroughAFormDecoderAndTheChecker(state: String) throws {
        let url = FlipResult.code("c", state: state).url(appendingTo: Self.redirect)
        let query = try #require(try RawURL(url).query)
        let fields = QueryField.fields(of: query)
        #expect(fields.map(\.name) == ["code", "state"])
        #expect(fields.last?.value.map { Array($0.utf8) } == Array(state.utf8))
        let verdict = FlipResultChecker(redirectURI: Self.base, state: state).check(url)
        #expect(verdict.isValid, "\(verdict)")
        #expect(verdict.outcome == .code("c"))
    }

    @Test(arguments: hostileStates)
    func errorResultsRoundTripToo(state: String) throws {
        let url = FlipResult.error(.cancelled, description: "Sign-in failed: \"offline\" & retry", state: state).url(appendingTo: Self.redirect)
        let items = try #require(URLComponents(string: url)?.queryItems)
        #expect(items.map(\.name) == ["error", "error_description", "state"])
        #expect(items.last?.value.map { Array($0.utf8) } == FlipFixtures.foundationDecoding(of: state))
        let verdict = FlipResultChecker(redirectURI: Self.base, state: state).check(url)
        #expect(verdict.outcome == .error(.cancelled, description: "Sign-in failed: \"offline\" & retry"))
        #expect(verdict.violations.isEmpty && verdict.deviations == [.errorDescriptionCharacters])
    }

    /// The seed's sample sets `URLComponents.queryItems`. Foundation then leaves `+`, `/`, `?`, `@` and `:`
    /// literal, and a standard form decoder reads that `+` as a space: the state no longer matches.
    @Test func foundationsQueryItemsSetterLeavesReservedCharactersUnencoded() throws {
        var components = try #require(URLComponents(string: Self.base))
        components.queryItems = [URLQueryItem(name: "code", value: "c"), URLQueryItem(name: "state", value: "a+b/c?d@e:f")]
        let query = try #require(components.percentEncodedQuery)
        #expect(query == "code=c&state=a+b/c?d@e:f")
        for literal in ["+", "/", "?", "@", ":"] { #expect(query.contains(literal)) }

        let url = try #require(components.string)
        let formDecoded = QueryField.fields(of: query).last?.value
        #expect(formDecoded == "a b/c?d@e:f")
        #expect(FlipResultChecker(redirectURI: Self.base, state: "a+b/c?d@e:f").check(url).violations == [.stateMismatch(literalPlus: true)])

        // Ours, for the same state.
        let ours = FlipResult.code("c", state: "a+b/c?d@e:f").query
        #expect(ours == "code=c&state=a%2Bb%2Fc%3Fd%40e%3Af")
    }
}
