import AppFlipConfiguration
import AppFlipCore
import AppFlipHTTPClient
import AsyncHTTPClient
import InMemoryLogging
import Logging
import Testing

@testable import AppFlipOAuth

/// No code, token, secret or session cookie in any log line of the new endpoints, at debug level.
@Suite struct EmbeddedLogRedactionTests {
    @Test("exchange, refresh, revoke, metadata and user_locale log fingerprints only")
    func nothingSecretIsLogged() async throws {
        let lines = InMemoryLogHandler()
        var logger = Logger(label: "appflip-oauth-log-test") { _ in lines }
        logger.logLevel = .trace
        let server = try EmbeddedAuthorizationServer(
            configuration: testConfiguration(),
            clock: ManualClock(),
            random: SystemRandomSource(),
            logger: logger
        )
        let fixed = [testClient.secret, otherClient.secret, try EmbeddedAuthorizeTests.cookie(server)]
        let issued = try await whileRunning(
            server,
            ready: { try await server.listeningPort() },
            body: { port in
                let base = "http://127.0.0.1:\(port)"
                return try await withHTTPClient { client in
                    let url = EmbeddedAuthorizeTests.authorize(
                        base,
                        redirectURI: EmbeddedTokenTests.redirectURI,
                        extra: [("response_type", "code"), ("state", "s"), ("user_locale", "not a tag")]
                    )
                    let location = try #require(try await get(url, cookie: try EmbeddedAuthorizeTests.cookie(server), with: client).location)
                    let code = try #require(try queryParameters(of: location)["code"])
                    let first = try EmbeddedCompletenessTests.tokens(try await EmbeddedTokenTests.exchange(base, code: code, with: client))
                    let second = try EmbeddedCompletenessTests.tokens(try await EmbeddedCompletenessTests.refresh(base, first.refresh, with: client))
                    _ = try await EmbeddedCompletenessTests.revoke(base, second.access, with: client)
                    _ = try await EmbeddedCompletenessTests.revoke(base, first.refresh, as: otherClient, with: client)
                    _ = try await EmbeddedCompletenessTests.revoke(base, first.refresh, hint: "refresh_token", with: client)
                    _ = try await EmbeddedCompletenessTests.revoke(base, "unknown-token-value-0123456789", with: client)
                    _ = try await EmbeddedCompletenessTests.refresh(base, second.refresh, with: client)
                    _ = try await get("\(base)/.well-known/oauth-authorization-server", with: client)
                    return [code, first.access, first.refresh, second.access, second.refresh, "unknown-token-value-0123456789"]
                }
            }
        )
        let secrets = fixed + issued
        let text = lines.entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        #expect(text.contains("revocation request"))
        #expect(text.contains("user_locale ignored"))
        for secret in secrets { #expect(!text.contains(secret), "a secret reached the log") }
    }
}
