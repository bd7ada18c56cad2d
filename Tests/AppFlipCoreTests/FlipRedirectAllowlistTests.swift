import Testing

@testable import AppFlipCore

@Suite struct FlipRedirectAllowlistTests {
    /// The seed's list, verbatim, so that the data in the code is checked against the source.
    static let seedList = """
        https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast.dev
        https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast.enterprise
        https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast
        https://oauth-redirect-sandbox.googleusercontent.com/a/com.google.Chromecast.dev
        https://oauth-redirect-sandbox.googleusercontent.com/a/com.google.Chromecast.enterprise
        https://oauth-redirect-sandbox.googleusercontent.com/a/com.google.Chromecast
        https://oauth-redirect.googleusercontent.com/a/com.google.OPA.dev
        https://oauth-redirect.googleusercontent.com/a/com.google.OPA.enterprise
        https://oauth-redirect.googleusercontent.com/a/com.google.OPA
        https://oauth-redirect-sandbox.googleusercontent.com/a/com.google.OPA.dev
        https://oauth-redirect-sandbox.googleusercontent.com/a/com.google.OPA.enterprise
        https://oauth-redirect-sandbox.googleusercontent.com/a/com.google.OPA
        """.split(separator: "\n").map(String.init)

    @Test func theDataIsTheSeedsTwelveURLsInOrder() {
        #expect(AppFlipRedirectURI.all.map(\.string) == Self.seedList)
        #expect(Set(AppFlipRedirectURI.all).count == 12)
        #expect(RedirectAllowlist.appFlip.uris == Self.seedList)
    }

    @Test func eachURLKnowsItsAppVariantAndEnvironment() {
        let sandboxOPADev = AppFlipRedirectURI.all[9]
        #expect(sandboxOPADev.app == .assistant && sandboxOPADev.variant == .dev && sandboxOPADev.environment == .sandbox)
        #expect(sandboxOPADev.bundleID == "com.google.OPA.dev")
        let home = AppFlipRedirectURI.all[2]
        #expect(home.app == .home && home.variant == .production && home.environment == .production)
        #expect(AppFlipRedirectURI.all.filter { $0.app == .home }.allSatisfy { $0.bundleID.hasPrefix("com.google.Chromecast") })
    }

    @Test(arguments: AppFlipRedirectURI.all)
    func acceptsEachOfTheTwelve(uri: AppFlipRedirectURI) throws {
        let allowed = try RedirectAllowlist.appFlip.check(uri.string).get()
        #expect(allowed.string == uri.string && allowed.appFlip == uri)
    }

    typealias Reason = RedirectRefusal.Reason
    static let base = "https://oauth-redirect.googleusercontent.com/a/com.google.OPA"

    static let lookalikes: [(String, Reason)] = [
        ("", .empty),
        // Host case, trailing dot, userinfo, ports.
        ("https://OAUTH-REDIRECT.googleusercontent.com/a/com.google.OPA", .hostNotLowerCase("OAUTH-REDIRECT.googleusercontent.com")),
        ("https://oauth-redirect.googleusercontent.Com/a/com.google.OPA", .hostNotLowerCase("oauth-redirect.googleusercontent.Com")),
        ("https://oauth-redirect.googleusercontent.com./a/com.google.OPA", .hostTrailingDot("oauth-redirect.googleusercontent.com.")),
        ("https://oauth-redirect.googleusercontent.com../a/com.google.OPA", .hostTrailingDot("oauth-redirect.googleusercontent.com..")),
        ("https://evil.test@oauth-redirect.googleusercontent.com/a/com.google.OPA", .userinfo),
        ("https://oauth-redirect.googleusercontent.com@evil.test/a/com.google.OPA", .userinfo),
        ("https://@oauth-redirect.googleusercontent.com/a/com.google.OPA", .userinfo),
        ("https://oauth-redirect.googleusercontent.com:443/a/com.google.OPA", .port("443")),
        ("https://oauth-redirect.googleusercontent.com:/a/com.google.OPA", .port("")),
        // Paths: extra, dot and encoded segments, case.
        (base + "/", .pathNotAllowed("/a/com.google.OPA/")),
        (base + "/..", .pathNotAllowed("/a/com.google.OPA/..")),
        (base + "/.", .pathNotAllowed("/a/com.google.OPA/.")),
        (base + "/../../evil", .pathNotAllowed("/a/com.google.OPA/../../evil")),
        ("https://oauth-redirect.googleusercontent.com/a/com%2Egoogle.OPA", .percentEncodedPath("/a/com%2Egoogle.OPA")),
        ("https://oauth-redirect.googleusercontent.com/a%2Fcom.google.OPA", .percentEncodedPath("/a%2Fcom.google.OPA")),
        ("https://oauth-redirect.googleusercontent.com/a/com.google.OP%41", .percentEncodedPath("/a/com.google.OP%41")),
        ("https://oauth-redirect.googleusercontent.com//a/com.google.OPA", .pathNotAllowed("//a/com.google.OPA")),
        ("https://oauth-redirect.googleusercontent.com/a/com.google.opa", .pathNotAllowed("/a/com.google.opa")),
        ("https://oauth-redirect.googleusercontent.com/A/com.google.OPA", .pathNotAllowed("/A/com.google.OPA")),
        ("https://oauth-redirect.googleusercontent.com/a/com.google.OPA.de", .pathNotAllowed("/a/com.google.OPA.de")),
        ("https://oauth-redirect.googleusercontent.com/a/com.google.OPA.staging", .pathNotAllowed("/a/com.google.OPA.staging")),
        ("https://oauth-redirect.googleusercontent.com", .pathNotAllowed("")),
        ("https://oauth-redirect.googleusercontent.com/", .pathNotAllowed("/")),
        // Backslashes.
        ("https://oauth-redirect.googleusercontent.com\\a\\com.google.OPA", .backslash(offset: 44)),
        ("https://evil.test\\@oauth-redirect.googleusercontent.com/a/com.google.OPA", .backslash(offset: 17)),
        // Schemes.
        ("http://oauth-redirect.googleusercontent.com/a/com.google.OPA", .scheme("http")),
        ("HTTPS://oauth-redirect.googleusercontent.com/a/com.google.OPA", .scheme("HTTPS")),
        ("Https://oauth-redirect.googleusercontent.com/a/com.google.OPA", .scheme("Https")),
        ("//oauth-redirect.googleusercontent.com/a/com.google.OPA", .malformed(URLSyntaxError(.missingScheme, at: 0))),
        ("https:/oauth-redirect.googleusercontent.com/a/com.google.OPA", .malformed(URLSyntaxError(.missingAuthority, at: 6))),
        // Query and fragment, even empty.
        (base + "?", .query),
        (base + "?x=1", .query),
        (base + "#", .fragment),
        (base + "#x", .fragment),
        (base + "?#", .query),
        // Other hosts, IDN and unicode tricks.
        (
            "https://oauth-redirect.googleusercontent.com.evil.test/a/com.google.OPA",
            .hostNotAllowed("oauth-redirect.googleusercontent.com.evil.test")
        ),
        ("https://evil-oauth-redirect.googleusercontent.com/a/com.google.OPA", .hostNotAllowed("evil-oauth-redirect.googleusercontent.com")),
        ("https://oauth-redirect.googleusercontent.co/a/com.google.OPA", .hostNotAllowed("oauth-redirect.googleusercontent.co")),
        ("https://xn--oauth-redirect-1xb.googleusercontent.com/a/com.google.OPA", .hostNotAllowed("xn--oauth-redirect-1xb.googleusercontent.com")),
        ("https://oauth-redirect.xn--gogleusercontent-3tc.com/a/com.google.OPA", .hostNotAllowed("oauth-redirect.xn--gogleusercontent-3tc.com")),
        ("https://oauth-redirect%2Egoogleusercontent.com/a/com.google.OPA", .hostNotAllowed("oauth-redirect%2Egoogleusercontent.com")),
        ("https://[::1]/a/com.google.OPA", .hostNotAllowed("[::1]")),
        ("https://oauth-redirect\u{FF0E}googleusercontent.com/a/com.google.OPA", .nonASCII(scalar: 0xFF0E, offset: 22)),
        ("https://oauth-redirect\u{3002}googleusercontent.com/a/com.google.OPA", .nonASCII(scalar: 0x3002, offset: 22)),
        ("https://oauth-redirect.g\u{043E}ogleusercontent.com/a/com.google.OPA", .nonASCII(scalar: 0x043E, offset: 24)),
        ("https://oauth-redirect.googleusercontent.com/a/com.google.OP\u{0391}", .nonASCII(scalar: 0x0391, offset: 60)),
        ("https://oauth-redirect.googleusercontent.com/a/com.google.OPA\u{200B}", .nonASCII(scalar: 0x200B, offset: 61)),
        ("\u{FEFF}" + base, .nonASCII(scalar: 0xFEFF, offset: 0)),
        ("https://oauth-redirect.googleusercontent.com/a/com.google.OPA\u{212A}", .nonASCII(scalar: 0x212A, offset: 61)),
        // Whitespace and control characters.
        (" " + base, .whitespaceOrControl(offset: 0)),
        (base + " ", .whitespaceOrControl(offset: 61)),
        (base + "\n", .whitespaceOrControl(offset: 61)),
        ("https://oauth-redirect.googleusercontent.com/a/com.google.\tOPA", .whitespaceOrControl(offset: 58)),
        (base + "\u{0}", .whitespaceOrControl(offset: 61)),
        (base + "\u{7F}", .whitespaceOrControl(offset: 61)),
        ("https://oauth-redirect.googleusercontent.com/a/com.google.OPA\u{00A0}", .nonASCII(scalar: 0xA0, offset: 61)),
        // Malformed escapes.
        (base + "%", .malformed(URLSyntaxError(.invalidPercentEscape, at: 61))),
    ]

    @Test(arguments: lookalikes)
    func refusesLookalikesAndSaysWhy(candidate: String, reason: Reason) {
        switch RedirectAllowlist.appFlip.check(candidate) {
        case .success:
            Issue.record("accepted \(String(reflecting: candidate))")
        case .failure(let refusal):
            #expect(refusal.reason == reason, "for \(String(reflecting: candidate))")
            #expect(!refusal.description.isEmpty)
        }
    }

    @Test func refusalsReadAsSentences() {
        #expect(RedirectRefusal(.port("443")).description == "the redirect URI has the port 443; no port is allowed, not even 443")
        #expect(RedirectRefusal(.nonASCII(scalar: 0xFF0E, offset: 22)).description.contains("U+FF0E"))
        #expect(RedirectRefusal(.hostNotAllowed("xn--abc.com")).description.contains("IDN"))
    }

    @Test func aSubsetRefusesTheOthersTheSameExactWay() throws {
        let productionAssistant = AppFlipRedirectURI.all.filter { $0.app == .assistant && $0.environment == .production }
        let subset = try RedirectAllowlist(appFlip: productionAssistant)
        for uri in AppFlipRedirectURI.all {
            let accepted = (try? subset.check(uri.string).get()) != nil
            #expect(accepted == productionAssistant.contains(uri), "\(uri)")
        }
        #expect(throws: RedirectRefusal.self) { try subset.check(FlipFixtures.assistant.string + "/").get() }
        let sandbox = try #require(AppFlipRedirectURI.all.last)
        #expect(throws: RedirectRefusal(.hostNotAllowed(sandbox.host))) { try subset.check(sandbox.string).get() }
    }

    @Test func anExtraURIIsCheckedExactlyToo() throws {
        let staging = "https://staging.partner.example/a/com.partner.tester"
        let list = try RedirectAllowlist(AppFlipRedirectURI.all.map(\.string) + [staging])
        let allowed = try list.check(staging).get()
        #expect(allowed.appFlip == nil && allowed.string == staging)
        #expect(try list.check(FlipFixtures.assistant.string).get().appFlip == FlipFixtures.assistant)
        for lookalike in [
            staging + "/", "https://Staging.partner.example/a/com.partner.tester", staging + "?", staging + "#",
            "https://staging.partner.example:443/a/com.partner.tester", "http://staging.partner.example/a/com.partner.tester",
            "https://staging.partner.example/a/com%2Epartner.tester", "https://staging.partner.example./a/com.partner.tester",
        ] {
            #expect(throws: RedirectRefusal.self, "\(lookalike)") { try list.check(lookalike).get() }
        }
    }

    @Test(arguments: [
        ([String](), RedirectAllowlistError.Reason.empty),
        (["https://a.example/x", "https://a.example/x"], .duplicate(ofIndex: 0)),
        (["http://a.example/x"], .refused(RedirectRefusal(.scheme("http")))),
        (["https://A.example/x"], .refused(RedirectRefusal(.hostNotLowerCase("A.example")))),
        (["https://a.example./x"], .refused(RedirectRefusal(.hostTrailingDot("a.example.")))),
        (["https://a.example:8443/x"], .refused(RedirectRefusal(.port("8443")))),
        (["https://u@a.example/x"], .refused(RedirectRefusal(.userinfo))),
        (["https://a.example/x?"], .refused(RedirectRefusal(.query))),
        (["https://a.example/x#"], .refused(RedirectRefusal(.fragment))),
        (["https://a.example/%78"], .refused(RedirectRefusal(.percentEncodedPath("/%78")))),
        (["https://a.example/a/../x"], .pathNotCanonical("/a/../x")),
        (["https://a.example/./x"], .pathNotCanonical("/./x")),
        (["https://a.example"], .pathNotCanonical("")),
        (["https://a.example/x "], .refused(RedirectRefusal(.whitespaceOrControl(offset: 19)))),
    ])
    func refusesAConfigurationThatIsNotExact(uris: [String], reason: RedirectAllowlistError.Reason) {
        let error = #expect(throws: RedirectAllowlistError.self) { try RedirectAllowlist(uris) }
        #expect(error?.reason == reason)
    }

    @Test func aConfigurationErrorNamesTheEntry() {
        do {
            _ = try RedirectAllowlist(["https://a.example/x", "https://a.example:1/x"])
            Issue.record("accepted")
        } catch {
            #expect(error.index == 1)
            #expect(error.description == "redirect allowlist entry 1: the redirect URI has the port 1; no port is allowed, not even 443")
        }
    }
}
