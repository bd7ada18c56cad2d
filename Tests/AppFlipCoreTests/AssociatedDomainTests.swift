import Testing

@testable import AppFlipCore

@Suite struct AssociatedDomainTests {
    @Test func exactDomainMatchesItsHostOnlyCaseInsensitively() throws {
        let domain = try AssociatedDomain("applinks:Example.com")
        #expect(domain.host == "example.com" && !domain.isWildcard)
        #expect(domain.matches(host: "example.com"))
        #expect(domain.matches(host: "EXAMPLE.COM"))
        #expect(!domain.matches(host: "www.example.com"))
        #expect(!domain.matches(host: "example.com."))
        #expect(!domain.matches(host: "notexample.com"))
    }

    @Test func wildcardMatchesSubdomainsOnlyNeverTheBareHost() throws {
        let domain = try AssociatedDomain("applinks:*.example.com")
        #expect(domain.isWildcard && domain.host == "example.com")
        #expect(domain.matches(host: "www.example.com"))
        #expect(domain.matches(host: "a.b.EXAMPLE.com"))
        #expect(!domain.matches(host: "example.com"))
        #expect(!domain.matches(host: ".example.com"))
        #expect(!domain.matches(host: "evilexample.com"))
        #expect(!domain.matches(host: "www.example.com.evil.test"))
    }

    @Test func onlyPlainHttpsURLsAreUniversalLinks() throws {
        let domain = try AssociatedDomain("applinks:example.com")
        #expect(domain.matches(try RawURL("https://example.com/x")))
        #expect(domain.matches(try RawURL("HTTPS://EXAMPLE.COM/x")))
        #expect(!domain.matches(try RawURL("https://example.com:443/x")))
        #expect(!domain.matches(try RawURL("https://example.com:/x")))
        #expect(!domain.matches(try RawURL("https://user@example.com/x")))
        #expect(!domain.matches(try RawURL("http://example.com/x")))
    }

    @Test func acceptsAndKeepsTheModeSuffix() throws {
        let domain = try AssociatedDomain("applinks:*.example.com?mode=developer+managed")
        #expect(domain.modes == [.developer, .managed])
        #expect(domain.description == "applinks:*.example.com?mode=developer+managed")
        #expect(domain.matches(host: "a.example.com"))
        #expect(try AssociatedDomain("applinks:example.com?mode=managed").modes == [.managed])
    }

    @Test(arguments: [
        "example.com", "webcredentials:example.com", "applinks:", "applinks:*.", "applinks:example..com",
        "applinks:example.com.", "applinks:example.com:443", "applinks:example.com/path", "applinks:exa mple.com",
        "applinks:bücher.example", "applinks:*.*.example.com", "applinks:example.com?mode=", "applinks:example.com?mode=prod",
        "applinks:example.com?other=1", "applinks:" + String(repeating: "a", count: 64) + ".com",
    ])
    func refusesMalformedEntries(_ entitlement: String) {
        #expect(throws: AssociatedDomainError.self) { try AssociatedDomain(entitlement) }
    }
}
