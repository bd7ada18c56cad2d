import Testing

@testable import AppFlipCore

@Suite struct RawURLTests {
    @Test func splitsEveryComponentVerbatim() throws {
        let url = try RawURL("https://u:p@Example.COM:8443/a%2Fb/c?x=1&y=%20#frag")
        #expect(url.scheme == "https")
        #expect(url.userinfo == "u:p")
        #expect(url.host == "Example.COM")
        #expect(url.normalizedHost == "example.com")
        #expect(url.port == "8443")
        #expect(url.path == "/a%2Fb/c")
        #expect(url.query == "x=1&y=%20")
        #expect(url.fragment == "frag")
    }

    /// Scheme and host compare in ASCII lower case; what is lower case already is the same string.
    @Test func normalizesSchemeAndHostInASCIILowerCaseOnly() throws {
        let mixed = try RawURL("HtTpS://Ex-Ample.COM/Path")
        #expect(mixed.normalizedScheme == "https")
        #expect(mixed.normalizedHost == "ex-ample.com")
        #expect(mixed.path == "/Path", "the path keeps its case")
        let lower = try RawURL("https://example.com/")
        #expect(lower.normalizedScheme == "https")
        #expect(lower.normalizedHost == "example.com")
        #expect(try RawURL("https://xn--bcher-kva.example/").normalizedHost == "xn--bcher-kva.example")
    }

    /// Equal when written alike, byte for byte: the components follow from the string, and no two
    /// spellings of "the same" URL compare equal (the redirect allowlist relies on that).
    @Test func equalAndHashedByWhatIsWritten() throws {
        let url = try RawURL("https://example.com/a?b#c")
        let again = try RawURL("https://example.com/a?b#c")
        #expect(url == again)
        #expect(Set([url, again]).count == 1)
        for other in ["https://EXAMPLE.com/a?b#c", "https://example.com/a?b", "https://example.com:443/a?b#c", "https://example.com/%61?b#c"] {
            #expect(try RawURL(other) != url, "\(other)")
        }
    }

    @Test func distinguishesAbsentFromEmptyQueryAndFragment() throws {
        let bare = try RawURL("https://example.com")
        #expect(bare.path == "" && bare.query == nil && bare.fragment == nil)
        let empty = try RawURL("https://example.com/?#")
        #expect(empty.query == "" && empty.fragment == "")
    }

    @Test func keepsIPLiteralBrackets() throws {
        let url = try RawURL("http://[::1]:8080/x")
        #expect(url.host == "[::1]" && url.port == "8080")
    }

    @Test(arguments: [
        ("", URLSyntaxError.Reason.empty),
        ("example.com/x", .missingScheme),
        ("1https://x/", .invalidScheme),
        ("https:x/y", .missingAuthority),
        ("https:///path", .emptyHost),
        ("https://h:44x/", .invalidPort),
        ("https://h/%zz", .invalidPercentEscape),
        ("https://h/a b", .invalidCharacter(" ")),
        ("https://h/a\\b", .invalidCharacter("\\")),
        ("https://h/#a#b", .invalidCharacter("#")),
    ])
    func refusesMalformedURLs(input: String, reason: URLSyntaxError.Reason) {
        #expect(throws: URLSyntaxError.self) { try RawURL(input) }
        do { _ = try RawURL(input) } catch { #expect(error.reason == reason) }
    }

    @Test func refusesNonASCII() {
        #expect(throws: URLSyntaxError.self) { try RawURL("https://exämple.com/") }
    }

    /// Every byte value in a path: taken exactly when RFC 3986 allows it outside an escape (the parser's
    /// bit table against `isURLCharacter`'s comparisons), except `#`, which a second time is no fragment.
    @Test func aPathTakesExactlyTheBytesRFC3986Allows() {
        for byte in UInt8.min...UInt8.max where byte != UInt8(ascii: "%") && byte != UInt8(ascii: "#") {
            let url = String(decoding: Array("https://h/a".utf8) + [byte] + Array("b#f".utf8), as: UTF8.self)
            let parsed = try? RawURL(url)
            #expect((parsed != nil) == (byte < 0x80 && byte.isURLCharacter), "byte 0x\(String(byte, radix: 16))")
        }
    }
}
