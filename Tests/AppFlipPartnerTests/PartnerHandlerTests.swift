import AppFlipClient
import AppFlipCore
import AppFlipDaemon
import AppFlipGoogle
import AppFlipOAuth
import AppFlipProtocol
import AppFlipTesting
import Testing

/// The `appflip` handler end to end: a real daemon, the real embedded OAuth server over loopback HTTP, a
/// Google app registered over the socket.
@Suite struct PartnerHandlerTests {
    static let opa = "https://oauth-redirect.googleusercontent.com/a/com.google.OPA"

    @Test func approveDeliversACodeAndTheStateThatGoogleExchangesOnce() async throws {
        try await TestPartner.run { daemon in
            let google = try await TestGoogleApp.register(on: daemon)
            let reply = try await google.flip(state: "s-1", redirectURI: Self.opa)
            let result = try #require(try reply.outcome.get().openResult)
            #expect(result.app == "PARTNER001.test.partner")
            #expect(result.opened.map(\.status) == [.delivered])
            #expect(result.opened.first?.universalLinksOnly == true)
            // The reply shows the result URL with the code redacted; only the Google app sees it whole.
            #expect(result.opened.first?.url.contains("code=[redacted:") == true)
            let url = try #require(google.urls.first)
            let verdict = FlipResultChecker(redirectURI: Self.opa, state: "s-1").check(url)
            #expect(verdict.isValid, "\(verdict)")
            guard case .code(let code)? = verdict.outcome else {
                Issue.record("no code: \(verdict)")
                return
            }

            let tokens = try await daemon.tokenClient()
            let issued = try await tokens.exchange(code: code, redirectURI: Self.opa)
            #expect(issued.report.violations.isEmpty, "\(issued.report.violations)")
            #expect(issued.report.scopes == ["profile"])
            let refreshToken = try #require(issued.refreshToken)
            let refreshed = try await tokens.refresh(refreshToken: refreshToken)
            #expect(refreshed.accessToken != issued.accessToken)
            #expect(refreshed.report.accessTokenFormat == .opaque)

            // Replay: the code is single use.
            await Self.expectInvalidGrant("a replayed code was exchanged") { () async throws(TokenEndpointFailure) in
                _ = try await tokens.exchange(code: code, redirectURI: Self.opa)
            }
            await google.connection.close()
        }
    }

    @Test func theWrongRedirectURIAtTheTokenEndpointIsRefused() async throws {
        try await TestPartner.run { daemon in
            let google = try await TestGoogleApp.register(on: daemon)
            _ = try await google.flip(state: "s", redirectURI: Self.opa)
            let code = try #require(Self.code(in: google.urls.first, redirectURI: Self.opa, state: "s"))
            let tokens = try await daemon.tokenClient()
            await Self.expectInvalidGrant("a code bound to \(Self.opa) was exchanged with another redirect_uri") {
                () async throws(TokenEndpointFailure) in _ = try await tokens.exchange(code: code, redirectURI: Self.opa + ".dev")
            }
            await google.connection.close()
        }
    }

    /// App Flip sends no PKCE challenge, so a verifier for the flip's code is refused; a code requested
    /// with an S256 challenge needs the right verifier.
    @Test func pkce() async throws {
        try await TestPartner.run { daemon in
            let google = try await TestGoogleApp.register(on: daemon)
            _ = try await google.flip(state: "s", redirectURI: Self.opa)
            let code = try #require(Self.code(in: google.urls.first, redirectURI: Self.opa, state: "s"))
            let tokens = try await daemon.tokenClient()
            await Self.expectInvalidGrant("a verifier was accepted for a code issued without a challenge") { () async throws(TokenEndpointFailure) in
                _ = try await tokens.exchange(code: code, redirectURI: Self.opa, codeVerifier: String(repeating: "v", count: 43))
            }

            let verifier = String(repeating: "a1-._~", count: 8)
            let challenged = try await PKCEAuthorization.code(from: daemon, challenge: .s256(verifier: verifier), redirectURI: Self.opa)
            await Self.expectInvalidGrant("a wrong verifier was accepted") { () async throws(TokenEndpointFailure) in
                _ = try await tokens.exchange(code: challenged, redirectURI: Self.opa, codeVerifier: verifier + "x")
            }
            let again = try await PKCEAuthorization.code(from: daemon, challenge: .s256(verifier: verifier), redirectURI: Self.opa)
            let issued = try await tokens.exchange(code: again, redirectURI: Self.opa, codeVerifier: verifier)
            #expect(issued.report.violations.isEmpty)
            await google.connection.close()
        }
    }

    @Test(arguments: [("cancel", "cancelled"), ("unrecoverable", "unrecoverable"), ("invalid_request", "invalid_request")])
    func scriptedErrorsAreOpenedOnTheRedirectURIWithTheState(outcome: String, error: String) async throws {
        let handler = TestPartner.handler(outcome: outcome, extra: ["errorDescription": .string("scripted & said so")])
        try await TestPartner.run(handler: handler) { daemon in
            let google = try await TestGoogleApp.register(on: daemon)
            let reply = try await google.flip(state: "st+ate", redirectURI: Self.opa)
            #expect(try reply.outcome.get().openResult?.opened.map(\.status) == [.delivered])
            #expect(google.urls == [Self.opa + "?error=\(error)&error_description=scripted%20%26%20said%20so&state=st%2Bate"])
            await google.connection.close()
        }
    }

    @Test func aDisabledUserIsUnrecoverable() async throws {
        try await TestPartner.run(handler: TestPartner.handler(user: "dave")) { daemon in
            let google = try await TestGoogleApp.register(on: daemon)
            _ = try await google.flip(state: "s", redirectURI: Self.opa)
            let url = try #require(google.urls.first)
            let verdict = FlipResultChecker(redirectURI: Self.opa, state: "s").check(url)
            #expect(verdict.isValid)
            guard case .error(.unrecoverable, let description)? = verdict.outcome else {
                Issue.record("\(verdict)")
                return
            }
            #expect(description?.contains("access_denied") == true)
            await google.connection.close()
        }
    }

    @Test func declineAnswersContinueFalseAndOpensNothing() async throws {
        try await TestPartner.run(handler: TestPartner.handler(outcome: "decline")) { daemon in
            let google = try await TestGoogleApp.register(on: daemon)
            let reply = try await google.flip(state: "s", redirectURI: Self.opa)
            guard case .failure(let error) = reply.outcome else {
                Issue.record("not declined: \(reply)")
                return
            }
            #expect(error.code == .declined)
            #expect(error.reason?.contains("scripted outcome") == true)
            #expect(error.opened?.isEmpty ?? true)
            #expect(google.urls.isEmpty)
            await google.connection.close()
        }
    }

    @Test func hangEndsWithTheHandlersTimeoutAndOpensNothing() async throws {
        let handler = TestPartner.handler(outcome: "hang", extra: ["timeoutSeconds": .number(0.3)])
        try await TestPartner.run(handler: handler) { daemon in
            let google = try await TestGoogleApp.register(on: daemon)
            let reply = try await google.flip(state: "s", redirectURI: Self.opa)
            guard case .failure(let error) = reply.outcome else {
                Issue.record("no timeout: \(reply)")
                return
            }
            #expect(error.code == .timeout)
            #expect(google.urls.isEmpty)
            await google.connection.close()
        }
    }

    @Test func everyOneOfTheTwelveRedirectURIsGetsItsCode() async throws {
        try await TestPartner.run { daemon in
            let google = try await TestGoogleApp.register(on: daemon)
            for (index, redirect) in AppFlipRedirectURI.all.enumerated() {
                let reply = try await google.flip(state: "s\(index)", redirectURI: redirect.string)
                #expect(try reply.outcome.get().openResult?.opened.map(\.status) == [.delivered], "\(redirect)")
                let code = Self.code(in: google.urls.last, redirectURI: redirect.string, state: "s\(index)")
                #expect(code != nil, "\(redirect)")
                let tokens = try await daemon.tokenClient()
                if let code { _ = try await tokens.exchange(code: code, redirectURI: redirect.string) }
            }
            #expect(google.urls.count == 12)
            await google.connection.close()
        }
    }

    static let hostileStates = [
        "a+b", "a b", "a&b=c", "#frag", "%", "%41", "%2B", "%%", "/?/", "\"quoted\" 'single'", "😀🇫🇷", "é", "state=x&code=y",
        "a\u{0}b", "+%20+", "\\", "<script>", String(repeating: "x", count: 2000),
    ]

    @Test(arguments: hostileStates)
    func hostileStatesAreEchoedByteForByte(state: String) async throws {
        try await TestPartner.run { daemon in
            let google = try await TestGoogleApp.register(on: daemon)
            let reply = try await google.flip(state: state, redirectURI: Self.opa)
            #expect(try reply.outcome.get().openResult?.opened.map(\.status) == [.delivered])
            let url = try #require(google.urls.first)
            let verdict = FlipResultChecker(redirectURI: Self.opa, state: state).check(url)
            #expect(verdict.isValid, "\(verdict)")
            await google.connection.close()
        }
    }

    static let lookalikes = [
        "https://oauth-redirect.googleusercontent.com/a/com.google.OPA/",
        "https://oauth-redirect.googleusercontent.com/a/com.google.OPA/x",
        "https://oauth-redirect.googleusercontent.com/a/com.google.opa",
        "https://OAUTH-REDIRECT.googleusercontent.com/a/com.google.OPA",
        "http://oauth-redirect.googleusercontent.com/a/com.google.OPA",
        "https://oauth-redirect.googleusercontent.com:443/a/com.google.OPA",
        "https://oauth-redirect.googleusercontent.com/a/com.google.OPA?x=1",
        "https://oauth-redirect.googleusercontent.com/a/com.google.OPA#f",
        "https://oauth-redirect.googleusercontent.com/a/com.google.OPA.evil",
        "https://oauth-redirect.googleusercontent.com/a/com.google.OP%41",
        "https://oauth-redirect.googleusercontent.com/a/./com.google.OPA",
        "https://user@oauth-redirect.googleusercontent.com/a/com.google.OPA",
        "https://oauth-redirect.googleusercontent.com.evil.test/a/com.google.OPA",
        "https://oauth-redirect.googleusercontent.com./a/com.google.OPA",
        "https://oauth-redirect-sandbox.googleusercontent.com/a/com.google.Chromecast.enterprise2",
        "https://oauth-redirect.googleusercontent.com/r/appflip-demo",
        " https://oauth-redirect.googleusercontent.com/a/com.google.OPA",
        "https://oauth-redirect.googleusercontent.com/a/com.google.OPA ",
        "https://evil.test/a/com.google.OPA",
    ]

    @Test(arguments: lookalikes)
    func aLookalikeRedirectURIIsDeclinedAndNothingIsOpened(redirect: String) async throws {
        try await TestPartner.run { daemon in
            let google = try await TestGoogleApp.register(on: daemon)
            let reply = try await google.flip(state: "s", redirectURI: redirect)
            guard case .failure(let error) = reply.outcome else {
                Issue.record("\(redirect) was not declined: \(reply)")
                return
            }
            #expect(error.code == .declined)
            #expect(error.reason?.hasPrefix("declined without a redirect: redirect_uri") == true, "\(error)")
            #expect(error.opened?.isEmpty ?? true)
            #expect(google.urls.isEmpty)
            await google.connection.close()
        }
    }

    @Test func aConfiguredSubsetOfRedirectURIsDeclinesTheOthers() async throws {
        let handler = TestPartner.handler(extra: ["redirectURIs": .array([.string(Self.opa)])])
        try await TestPartner.run(handler: handler) { daemon in
            let google = try await TestGoogleApp.register(on: daemon)
            let other = try await google.flip(state: "s", redirectURI: "https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast")
            guard case .failure(let error) = other.outcome else {
                Issue.record("a redirect URI outside the configured subset was not declined")
                return
            }
            #expect(error.code == .declined)
            #expect(google.urls.isEmpty)
            let allowed = try await google.flip(state: "s", redirectURI: Self.opa)
            #expect(try allowed.outcome.get().openResult?.opened.map(\.status) == [.delivered])
            await google.connection.close()
        }
    }

    @Test(arguments: ["other-client", "PARTNER-TEST-CLIENT", "partner-test-client ", "partner-test-clien"])
    func aClientIDMismatchIsDeclined(clientID: String) async throws {
        try await TestPartner.run { daemon in
            let google = try await TestGoogleApp.register(on: daemon)
            let reply = try await google.flip(clientID: clientID, state: "s", redirectURI: Self.opa)
            guard case .failure(let error) = reply.outcome else {
                Issue.record("\(clientID) was not declined")
                return
            }
            #expect(error.code == .declined)
            #expect(error.reason == "declined without a redirect: client_id is not one of the expected client ids")
            #expect(google.urls.isEmpty)
            await google.connection.close()
        }
    }

    @Test func aMissingStateIsAnInvalidRequestOnTheVerifiedRedirectURI() async throws {
        try await TestPartner.run { daemon in
            let google = try await TestGoogleApp.register(on: daemon)
            let link =
                TestPartner.link
                + "?client_id=\(TestPartner.clientID)&scope=profile&redirect_uri=https%3A%2F%2Foauth-redirect.googleusercontent.com%2Fa%2Fcom.google.OPA"
            let reply = try await google.open(link)
            #expect(try reply.outcome.get().openResult?.opened.map(\.status) == [.delivered])
            let url = try #require(google.urls.first)
            #expect(url.hasPrefix(Self.opa + "?error=invalid_request&error_description="))
            #expect(!url.contains("state="))
            await google.connection.close()
        }
    }

    /// The token endpoint must refuse with HTTP 400 invalid_grant.
    static func expectInvalidGrant(_ failure: String, _ body: () async throws(TokenEndpointFailure) -> Void) async {
        do throws(TokenEndpointFailure) {
            try await body()
            Issue.record(Comment(rawValue: failure))
        } catch {
            guard case .endpoint(400, "invalid_grant"?, _) = error else {
                Issue.record("not invalid_grant: \(error)")
                return
            }
        }
    }

    static func code(in url: String?, redirectURI: String, state: String) -> String? {
        guard let url, case .code(let code)? = FlipResultChecker(redirectURI: redirectURI, state: state).check(url).outcome else { return nil }
        return code
    }
}

extension ReplyResult {
    var openResult: OpenResult? {
        if case .open(let result) = self { return result }
        return nil
    }
}
