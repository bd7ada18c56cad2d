import AppFlipConfiguration
import AppFlipCore
import AsyncHTTPClient
import FoundationEssentials
import NIOCore
import NIOHTTP1
import Testing

@testable import AppFlipOAuth

/// Refresh rotation policies, RFC 7009 revocation, RFC 8414 metadata, the token response headers and
/// `user_locale`, over real HTTP against the embedded server.
@Suite struct EmbeddedCompletenessTests {
    typealias Tokens = (access: String, refresh: String)

    static func tokens(_ response: RawResponse) throws -> Tokens {
        let body = try EmbeddedTokenTests.json(response)
        guard response.status == 200, case .string(let access) = body["access_token"],
            case .string(let refresh) = body["refresh_token"]
        else { throw TestFailure("no tokens: HTTP \(response.status) \(body.keys.sorted())") }
        return (access, refresh)
    }

    static func linked(_ server: EmbeddedAuthorizationServer, _ base: String, with client: HTTPClient) async throws -> Tokens {
        let code = try await EmbeddedTokenTests.code(server, base, with: client)
        return try tokens(try await EmbeddedTokenTests.exchange(base, code: code, with: client))
    }

    static func refresh(_ base: String, _ token: String, with client: HTTPClient) async throws -> RawResponse {
        try await postForm(
            "\(base)/token",
            [("grant_type", "refresh_token"), ("refresh_token", token)],
            basic: (testClient.id, testClient.secret),
            with: client
        )
    }

    static func error(_ response: RawResponse) throws -> String? {
        guard case .string(let error) = try EmbeddedTokenTests.json(response)["error"] else { return nil }
        return error
    }

    static func revoke(
        _ base: String,
        _ token: String,
        hint: String? = nil,
        as registered: RegisteredClient = testClient,
        post: Bool = false,
        with client: HTTPClient
    ) async throws -> RawResponse {
        let form = [("token", token)] + (hint.map { [("token_type_hint", $0)] } ?? [])
        if post {
            return try await postForm(
                "\(base)/revoke",
                form + [("client_id", registered.id), ("client_secret", registered.secret)],
                with: client
            )
        }
        return try await postForm("\(base)/revoke", form, basic: (registered.id, registered.secret), with: client)
    }

    static func userinfo(_ base: String, _ token: String, with client: HTTPClient) async throws -> Int {
        try await EmbeddedTokenTests.userinfo(base, token: token, with: client)
    }

    // MARK: Rotation

    @Test("grace (the default): the previous refresh token works until the new one is first used, then its reuse revokes the family")
    func graceUntilFirstUse() async throws {
        #expect(testConfiguration().refreshTokenRotation == .grace)
        try await withEmbeddedServer { server, base in
            try await withHTTPClient { client in
                let first = try await Self.linked(server, base, with: client)
                let second = try Self.tokens(try await Self.refresh(base, first.refresh, with: client))
                #expect(second.refresh != first.refresh)
                // Must work: the answer was lost, the previous token is presented again.
                let retry = try Self.tokens(try await Self.refresh(base, first.refresh, with: client))
                #expect(retry.refresh != second.refresh)
                // The unused successor it replaced is retired; the retry's token is the current one.
                let third = try Self.tokens(try await Self.refresh(base, retry.refresh, with: client))
                #expect(try await Self.userinfo(base, third.access, with: client) == 200)
                // The new token has been used: the previous one's grace is over. Must fail, and kill everything.
                let stale = try await Self.refresh(base, first.refresh, with: client)
                #expect(stale.status == 400)
                #expect(try Self.error(stale) == "invalid_grant")
                #expect(try await Self.userinfo(base, third.access, with: client) == 401)
                #expect(try Self.error(try await Self.refresh(base, third.refresh, with: client)) == "invalid_grant")
            }
        }
    }

    @Test("grace: the previous refresh token works until its successor is used, not after")
    func graceEndsOnSuccessorUse() async throws {
        try await withEmbeddedServer { server, base in
            try await withHTTPClient { client in
                let first = try await Self.linked(server, base, with: client)
                let second = try Self.tokens(try await Self.refresh(base, first.refresh, with: client))
                let third = try Self.tokens(try await Self.refresh(base, second.refresh, with: client))
                // second is now the previous token (third unused): it still works.
                let again = try Self.tokens(try await Self.refresh(base, second.refresh, with: client))
                // third was never used and has been replaced: presenting it is reuse of a retired token.
                #expect(try Self.error(try await Self.refresh(base, third.refresh, with: client)) == "invalid_grant")
                #expect(try await Self.userinfo(base, again.access, with: client) == 401)
            }
        }
    }

    @Test("grace with refreshTokenGraceSeconds: the previous token works within the time, then its reuse revokes the family")
    func graceSeconds() async throws {
        let clock = ManualClock()
        try await withEmbeddedServer(testConfiguration(graceSeconds: 30), clock: clock) { server, base in
            try await withHTTPClient { client in
                let first = try await Self.linked(server, base, with: client)
                let second = try Self.tokens(try await Self.refresh(base, first.refresh, with: client))
                clock.advance(by: .seconds(29))
                let retry = try Self.tokens(try await Self.refresh(base, first.refresh, with: client))
                clock.advance(by: .seconds(1))
                #expect(try Self.error(try await Self.refresh(base, first.refresh, with: client)) == "invalid_grant")
                #expect(try await Self.userinfo(base, retry.access, with: client) == 401)
                #expect(try Self.error(try await Self.refresh(base, retry.refresh, with: client)) == "invalid_grant")
                #expect(try Self.error(try await Self.refresh(base, second.refresh, with: client)) == "invalid_grant")
            }
        }
    }

    @Test("strict: the previous refresh token fails at once and its reuse revokes the family")
    func strict() async throws {
        try await withEmbeddedServer(testConfiguration(rotation: .strict)) { server, base in
            try await withHTTPClient { client in
                let first = try await Self.linked(server, base, with: client)
                let second = try Self.tokens(try await Self.refresh(base, first.refresh, with: client))
                #expect(second.refresh != first.refresh)
                let third = try Self.tokens(try await Self.refresh(base, second.refresh, with: client))
                #expect(try Self.error(try await Self.refresh(base, second.refresh, with: client)) == "invalid_grant")
                #expect(try await Self.userinfo(base, third.access, with: client) == 401)
                #expect(try Self.error(try await Self.refresh(base, third.refresh, with: client)) == "invalid_grant")
            }
        }
    }

    @Test("off: the same refresh token is returned and keeps working; a revoked or replayed-code family still dies")
    func off() async throws {
        try await withEmbeddedServer(testConfiguration(rotation: .off)) { server, base in
            try await withHTTPClient { client in
                let code = try await EmbeddedTokenTests.code(server, base, with: client)
                let first = try Self.tokens(try await EmbeddedTokenTests.exchange(base, code: code, with: client))
                var access: [String] = []
                for _ in 0..<3 {
                    let next = try Self.tokens(try await Self.refresh(base, first.refresh, with: client))
                    #expect(next.refresh == first.refresh)
                    access.append(next.access)
                }
                #expect(Set(access).count == 3)
                // Must fail: a replayed code revokes the family, the unrotated token with it.
                #expect(try Self.error(try await EmbeddedTokenTests.exchange(base, code: code, with: client)) == "invalid_grant")
                #expect(try Self.error(try await Self.refresh(base, first.refresh, with: client)) == "invalid_grant")
                for token in access { #expect(try await Self.userinfo(base, token, with: client) == 401) }
            }
        }
    }

    @Test("rotation configuration: camelCase keys, grace seconds only under grace and positive")
    func rotationConfiguration() throws {
        func decode(_ extra: String) throws -> OAuthServerConfiguration {
            let json = """
                {"clients": [{"clientID": "c", "clientSecret": "0123456789abcdef", "redirectURIs": ["https://a/b"], "scopes": []}],
                 "users": [] \(extra)}
                """
            return try JSONDecoder().decode(OAuthServerConfiguration.self, from: Data(json.utf8))
        }
        #expect(try decode("").refreshTokenRotation == .grace)
        #expect(try decode("").refreshTokenGraceSeconds == nil)
        #expect(try decode(#", "refreshTokenRotation": "strict""#).refreshTokenRotation == .strict)
        #expect(try decode(#", "refreshTokenRotation": "off""#).refreshTokenRotation == .off)
        #expect(try decode(#", "refreshTokenGraceSeconds": 30"#).refreshTokenGraceSeconds == 30)
        #expect(throws: (any Error).self) { try decode(#", "refreshTokenRotation": "sometimes""#) }
        #expect(throws: (any Error).self) { try decode(#", "refresh_token_rotation": "strict""#) }
        #expect(throws: ConfigurationError.self) {
            try decode(#", "refreshTokenRotation": "strict", "refreshTokenGraceSeconds": 30"#).validate()
        }
        #expect(throws: ConfigurationError.self) { try decode(#", "refreshTokenGraceSeconds": 0"#).validate() }
        try decode(#", "refreshTokenGraceSeconds": 1"#).validate()
    }

    // MARK: Revocation

    @Test("revoking a refresh token revokes its family: its access tokens no longer open /userinfo")
    func revokeRefresh() async throws {
        try await withEmbeddedServer { server, base in
            try await withHTTPClient { client in
                let first = try await Self.linked(server, base, with: client)
                let second = try Self.tokens(try await Self.refresh(base, first.refresh, with: client))
                let response = try await Self.revoke(base, second.refresh, hint: "refresh_token", with: client)
                #expect(response.status == 200)
                #expect(response.headers.first(name: "Cache-Control") == "no-store")
                #expect(try await Self.userinfo(base, first.access, with: client) == 401)
                #expect(try await Self.userinfo(base, second.access, with: client) == 401)
                #expect(try Self.error(try await Self.refresh(base, second.refresh, with: client)) == "invalid_grant")
                // The previous token, still in its grace before, is dead too.
                #expect(try Self.error(try await Self.refresh(base, first.refresh, with: client)) == "invalid_grant")
                // Revoking again: nothing to do, still 200.
                #expect(try await Self.revoke(base, second.refresh, with: client).status == 200)
            }
        }
    }

    @Test("revoking an access token ends only that token; a wrong hint is searched past")
    func revokeAccess() async throws {
        try await withEmbeddedServer { server, base in
            try await withHTTPClient { client in
                let first = try await Self.linked(server, base, with: client)
                #expect(try await Self.userinfo(base, first.access, with: client) == 200)
                let response = try await Self.revoke(base, first.access, hint: "refresh_token", post: true, with: client)
                #expect(response.status == 200)
                #expect(try await Self.userinfo(base, first.access, with: client) == 401)
                let second = try Self.tokens(try await Self.refresh(base, first.refresh, with: client))
                #expect(try await Self.userinfo(base, second.access, with: client) == 200)
                #expect(try await Self.revoke(base, second.access, hint: "something_else", with: client).status == 200)
                #expect(try await Self.userinfo(base, second.access, with: client) == 401)
            }
        }
    }

    @Test("revocation: unknown token 200; client authentication as /token; another client's token refused; token required")
    func revokeErrors() async throws {
        try await withEmbeddedServer { server, base in
            try await withHTTPClient { client in
                let first = try await Self.linked(server, base, with: client)
                #expect(try await Self.revoke(base, "no-such-token", with: client).status == 200)
                let other = try await Self.revoke(base, first.refresh, as: otherClient, with: client)
                #expect(other.status == 400)
                #expect(try Self.error(other) == "unauthorized_client")
                #expect(try await Self.userinfo(base, first.access, with: client) == 200)
                var wrong = testClient
                wrong.secret = "not-the-secret-0123456789"
                let unauthenticated = try await Self.revoke(base, first.refresh, as: wrong, with: client)
                #expect(unauthenticated.status == 401)
                #expect(try Self.error(unauthenticated) == "invalid_client")
                #expect(unauthenticated.headers.first(name: "WWW-Authenticate") == "Basic realm=\"appflip-oauth\"")
                let none = try await postForm("\(base)/revoke", [("token", first.refresh)], with: client)
                #expect(none.status == 401)
                let missing = try await postForm("\(base)/revoke", [], basic: (testClient.id, testClient.secret), with: client)
                #expect(try Self.error(missing) == "invalid_request")
                #expect(try Self.tokens(try await Self.refresh(base, first.refresh, with: client)).access != first.access)
            }
        }
    }

    // MARK: Metadata, headers, user_locale

    @Test("RFC 8414 metadata names every endpoint and what it supports")
    func metadata() async throws {
        try await withEmbeddedServer { _, base in
            try await withHTTPClient { client in
                let response = try await get("\(base)/.well-known/oauth-authorization-server", with: client)
                #expect(response.status == 200)
                let body = try EmbeddedTokenTests.json(response)
                #expect(body["issuer"] == .string(base))
                #expect(body["authorization_endpoint"] == .string("\(base)/authorize"))
                #expect(body["token_endpoint"] == .string("\(base)/token"))
                #expect(body["revocation_endpoint"] == .string("\(base)/revoke"))
                #expect(body["userinfo_endpoint"] == .string("\(base)/userinfo"))
                #expect(body["response_types_supported"] == .array([.string("code")]))
                #expect(body["grant_types_supported"] == .array([.string("authorization_code"), .string("refresh_token")]))
                #expect(body["code_challenge_methods_supported"] == .array([.string("S256"), .string("plain")]))
                #expect(
                    body["token_endpoint_auth_methods_supported"]
                        == .array([.string("client_secret_basic"), .string("client_secret_post")])
                )
                #expect(body["scopes_supported"] == .array([.string("profile"), .string("devices")]))
            }
        }
    }

    @Test("token responses carry JSON UTF-8, no-store and no-cache on success and on error, at /token and /revoke")
    func tokenHeaders() async throws {
        try await withEmbeddedServer { server, base in
            try await withHTTPClient { client in
                let first = try await Self.linked(server, base, with: client)
                let responses = [
                    try await Self.refresh(base, first.refresh, with: client),
                    try await Self.refresh(base, "unknown", with: client),
                    try await postForm("\(base)/token", [("grant_type", "password")], with: client),
                    try await Self.revoke(base, "unknown", with: client),
                    try await postForm("\(base)/revoke", [("token", "x")], with: client),
                ]
                #expect(responses.map(\.status) == [200, 400, 401, 200, 401])
                for response in responses {
                    #expect(response.headers.first(name: "Content-Type") == "application/json;charset=UTF-8")
                    #expect(response.headers.first(name: "Cache-Control") == "no-store")
                    #expect(response.headers.first(name: "Pragma") == "no-cache")
                }
            }
        }
    }

    @Test("/authorize accepts user_locale; an invalid tag is ignored, never an error")
    func userLocale() async throws {
        try await withEmbeddedServer { server, base in
            try await withHTTPClient { client in
                for locale in ["en-US", "de", "zh-Hant-TW", "en_US", "", "-x-", "not a tag at all!"] {
                    let url = EmbeddedAuthorizeTests.authorize(
                        base,
                        redirectURI: EmbeddedTokenTests.redirectURI,
                        extra: [("response_type", "code"), ("state", "s"), ("user_locale", locale)]
                    )
                    let response = try await get(url, cookie: try EmbeddedAuthorizeTests.cookie(server), with: client)
                    #expect(response.status == 302)
                    let location = try #require(response.location)
                    #expect(try queryParameters(of: location)["code"] != nil, "user_locale \(locale)")
                }
            }
        }
    }

    @Test(
        "BCP 47 syntax",
        arguments: [
            ("en", true), ("en-US", true), ("zh-Hant-TW", true), ("de-CH-1901", true), ("x-private", true),
            ("es-419", true), ("en_US", false), ("", false), ("e", false), ("-en", false), ("en-", false),
            ("en--US", false), ("toolongtag", false), ("en-abcdefghi", false), ("x", false), ("ü", false),
        ]
    )
    func languageTags(tag: String, valid: Bool) {
        #expect(AuthorizeHandler.isWellFormedLanguageTag(tag) == valid)
    }
}
