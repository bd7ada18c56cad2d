import AppFlipConfiguration
import AppFlipCore
import AsyncHTTPClient
import FoundationEssentials
import NIOCore
import NIOHTTP1
import Testing

@testable import AppFlipOAuth

/// `POST /token` and `GET /userinfo` of the embedded server, over real HTTP.
@Suite struct EmbeddedTokenTests {
    static let redirectURI = appFlipRedirectURIs[7]

    /// Gets a code for alice through /authorize.
    static func code(
        _ server: EmbeddedAuthorizationServer,
        _ base: String,
        pkce: [(String, String)] = [],
        with client: HTTPClient
    ) async throws -> String {
        let url = EmbeddedAuthorizeTests.authorize(
            base,
            redirectURI: redirectURI,
            extra: [("response_type", "code"), ("state", "t")] + pkce
        )
        let response = try await get(url, cookie: try EmbeddedAuthorizeTests.cookie(server), with: client)
        let location = try #require(response.location)
        return try #require(try queryParameters(of: location)["code"])
    }

    static func exchange(
        _ base: String,
        code: String,
        redirectURI: String = redirectURI,
        extra: [(String, String)] = [],
        with client: HTTPClient
    ) async throws -> RawResponse {
        try await postForm(
            "\(base)/token",
            [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI),
                ("client_id", testClient.id), ("client_secret", testClient.secret),
            ] + extra,
            with: client
        )
    }

    static func json(_ response: RawResponse) throws -> [String: JSONValue] {
        try JSONDecoder().decode([String: JSONValue].self, from: Data(response.body.utf8))
    }

    static func userinfo(_ base: String, token: String, with client: HTTPClient) async throws -> Int {
        var request = HTTPClientRequest(url: "\(base)/userinfo")
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        return try await send(request, with: client).status
    }

    @Test("a code exchanges for opaque Bearer tokens that expire and come with a refresh token")
    func exchangeSucceeds() async throws {
        try await withEmbeddedServer { server, base in
            try await withHTTPClient { client in
                let response = try await Self.exchange(base, code: try await Self.code(server, base, with: client), with: client)
                #expect(response.status == 200)
                #expect(response.headers.first(name: "Cache-Control") == "no-store")
                #expect(response.headers.first(name: "Content-Type") == "application/json;charset=UTF-8")
                #expect(response.headers.first(name: "Pragma") == "no-cache")
                let body = try Self.json(response)
                #expect(body["token_type"] == .string("Bearer"))
                #expect(body["expires_in"] == .number(3600))
                #expect(body["scope"] == .string("profile devices"))
                guard case .string(let access) = body["access_token"], case .string(let refresh) = body["refresh_token"] else {
                    throw TestFailure("no tokens in \(body.keys)")
                }
                #expect(!access.contains("."))
                #expect(access != refresh)
                #expect(try await Self.userinfo(base, token: access, with: client) == 200)
            }
        }
    }

    @Test("a replayed code is invalid_grant and revokes every token issued from it")
    func replayRevokes() async throws {
        try await withEmbeddedServer { server, base in
            try await withHTTPClient { client in
                let code = try await Self.code(server, base, with: client)
                let first = try Self.json(try await Self.exchange(base, code: code, with: client))
                guard case .string(let access) = first["access_token"], case .string(let refresh) = first["refresh_token"]
                else { throw TestFailure("no tokens") }
                #expect(try await Self.userinfo(base, token: access, with: client) == 200)

                let replay = try await Self.exchange(base, code: code, with: client)
                #expect(replay.status == 400)
                #expect(try Self.json(replay)["error"] == .string("invalid_grant"))
                #expect(try await Self.userinfo(base, token: access, with: client) == 401)
                let refreshed = try await postForm(
                    "\(base)/token",
                    [("grant_type", "refresh_token"), ("refresh_token", refresh)],
                    basic: (testClient.id, testClient.secret),
                    with: client
                )
                #expect(refreshed.status == 400)
                #expect(try Self.json(refreshed)["error"] == .string("invalid_grant"))
            }
        }
    }

    @Test("redirect_uri at /token must be identical to the one bound to the code")
    func redirectMismatch() async throws {
        try await withEmbeddedServer { server, base in
            try await withHTTPClient { client in
                let code = try await Self.code(server, base, with: client)
                for wrong in [appFlipRedirectURIs[0], Self.redirectURI + "/", Self.redirectURI.uppercased()] {
                    let response = try await Self.exchange(base, code: code, redirectURI: wrong, with: client)
                    #expect(response.status == 400)
                    #expect(try Self.json(response)["error"] == .string("invalid_grant"))
                }
                let missing = try await postForm(
                    "\(base)/token",
                    [
                        ("grant_type", "authorization_code"), ("code", code), ("client_id", testClient.id),
                        ("client_secret", testClient.secret),
                    ],
                    with: client
                )
                #expect(try Self.json(missing)["error"] == .string("invalid_request"))
                // The failed attempts did not consume the code.
                #expect(try await Self.exchange(base, code: code, with: client).status == 200)
            }
        }
    }

    @Test("PKCE: S256 and plain verified, missing or unexpected verifier refused")
    func pkce() async throws {
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
        let s256 = PKCEChallenge.s256(verifier: verifier)
        #expect(s256.value == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")  // RFC 7636 appendix B
        try await withEmbeddedServer { server, base in
            try await withHTTPClient { client in
                let withS256 = [("code_challenge", s256.value), ("code_challenge_method", "S256")]
                let withPlain = [("code_challenge", verifier)]
                let cases: [(challenge: [(String, String)], verifier: String?, status: Int)] = [
                    (withS256, verifier, 200),
                    (withS256, String(verifier.dropLast()) + "Y", 400),
                    (withS256, nil, 400),
                    (withS256, s256.value, 400),
                    (withPlain, verifier, 200),
                    (withPlain, String(verifier.dropLast()) + "Y", 400),
                    (withPlain, nil, 400),
                    ([], verifier, 400),
                    ([], nil, 200),
                ]
                for (challenge, verifier, status) in cases {
                    let code = try await Self.code(server, base, pkce: challenge, with: client)
                    let response = try await Self.exchange(
                        base,
                        code: code,
                        extra: verifier.map { [("code_verifier", $0)] } ?? [],
                        with: client
                    )
                    #expect(response.status == status, "\(challenge) \(verifier ?? "no verifier")")
                    if status == 400 { #expect(try Self.json(response)["error"] == .string("invalid_grant")) }
                }
            }
        }
    }

    @Test("strict rotation: refresh returns a new access token and rotates the refresh token; reuse revokes the family")
    func refresh() async throws {
        try await withEmbeddedServer(testConfiguration(rotation: .strict)) { server, base in
            try await withHTTPClient { client in
                let first = try Self.json(
                    try await Self.exchange(base, code: try await Self.code(server, base, with: client), with: client)
                )
                guard case .string(let access1) = first["access_token"], case .string(let refresh1) = first["refresh_token"]
                else { throw TestFailure("no tokens") }
                let refreshForm = { (token: String) in [("grant_type", "refresh_token"), ("refresh_token", token)] }
                let second = try await postForm(
                    "\(base)/token",
                    refreshForm(refresh1) + [("scope", "profile")],
                    basic: (testClient.id, testClient.secret),
                    with: client
                )
                #expect(second.status == 200)
                let body = try Self.json(second)
                guard case .string(let access2) = body["access_token"], case .string(let refresh2) = body["refresh_token"]
                else { throw TestFailure("no tokens") }
                #expect(access2 != access1)
                #expect(refresh2 != refresh1)
                #expect(body["scope"] == .string("profile"))
                #expect(body["expires_in"] == .number(3600))

                let wider = try await postForm(
                    "\(base)/token",
                    refreshForm(refresh2) + [("scope", "profile admin")],
                    basic: (testClient.id, testClient.secret),
                    with: client
                )
                #expect(try Self.json(wider)["error"] == .string("invalid_scope"))
                let otherClientTry = try await postForm(
                    "\(base)/token",
                    refreshForm(refresh2),
                    basic: (otherClient.id, otherClient.secret),
                    with: client
                )
                #expect(try Self.json(otherClientTry)["error"] == .string("invalid_grant"))
                let unknown = try await postForm(
                    "\(base)/token",
                    refreshForm("not-a-refresh-token"),
                    basic: (testClient.id, testClient.secret),
                    with: client
                )
                #expect(unknown.status == 400)
                #expect(try Self.json(unknown)["error"] == .string("invalid_grant"))

                // Reusing the rotated-out token revokes the family: the current tokens die too.
                let reuse = try await postForm(
                    "\(base)/token",
                    refreshForm(refresh1),
                    basic: (testClient.id, testClient.secret),
                    with: client
                )
                #expect(try Self.json(reuse)["error"] == .string("invalid_grant"))
                #expect(try await Self.userinfo(base, token: access2, with: client) == 401)
                let afterRevoke = try await postForm(
                    "\(base)/token",
                    refreshForm(refresh2),
                    basic: (testClient.id, testClient.secret),
                    with: client
                )
                #expect(try Self.json(afterRevoke)["error"] == .string("invalid_grant"))
            }
        }
    }

    @Test("client authentication: Basic or post, exactly one; failures are 401 invalid_client")
    func clientAuthentication() async throws {
        try await withEmbeddedServer { server, base in
            try await withHTTPClient { client in
                let code = try await Self.code(server, base, with: client)
                let grant = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", Self.redirectURI)]

                let wrongBasic = try await postForm(
                    "\(base)/token",
                    grant,
                    basic: (testClient.id, "wrong-secret"),
                    with: client
                )
                #expect(wrongBasic.status == 401)
                #expect(wrongBasic.headers.first(name: "WWW-Authenticate")?.hasPrefix("Basic") == true)
                #expect(try Self.json(wrongBasic)["error"] == .string("invalid_client"))

                let wrongPost = try await postForm(
                    "\(base)/token",
                    grant + [("client_id", testClient.id), ("client_secret", "wrong")],
                    with: client
                )
                #expect(wrongPost.status == 401)
                // RFC 9110 §15.5.2: a 401 carries a challenge whatever the client tried.
                #expect(wrongPost.headers.first(name: "WWW-Authenticate") == "Basic realm=\"appflip-oauth\"")

                let unknownClient = try await postForm(
                    "\(base)/token",
                    grant,
                    basic: ("nobody", testClient.secret),
                    with: client
                )
                #expect(unknownClient.status == 401)

                let none = try await postForm("\(base)/token", grant + [("client_id", testClient.id)], with: client)
                #expect(none.status == 401)

                let both = try await postForm(
                    "\(base)/token",
                    grant + [("client_secret", testClient.secret)],
                    basic: (testClient.id, testClient.secret),
                    with: client
                )
                #expect(both.status == 400)
                #expect(try Self.json(both)["error"] == .string("invalid_request"))

                // A code issued to one client cannot be redeemed by another.
                let stolen = try await postForm(
                    "\(base)/token",
                    grant,
                    basic: (otherClient.id, otherClient.secret),
                    with: client
                )
                #expect(try Self.json(stolen)["error"] == .string("invalid_grant"))

                // None of that consumed the code: Basic alone works.
                let basic = try await postForm(
                    "\(base)/token",
                    grant,
                    basic: (testClient.id, testClient.secret),
                    with: client
                )
                #expect(basic.status == 200)
            }
        }
    }

    @Test("malformed token requests are 400 with an RFC 6749 error")
    func malformedRequests() async throws {
        try await withEmbeddedServer { _, base in
            try await withHTTPClient { client in
                let auth = (testClient.id, testClient.secret)
                let cases: [([(String, String)], String, String)] = [
                    ([], "application/x-www-form-urlencoded", "invalid_request"),
                    ([("grant_type", "password")], "application/x-www-form-urlencoded", "unsupported_grant_type"),
                    ([("grant_type", "authorization_code")], "application/x-www-form-urlencoded", "invalid_request"),
                    ([("grant_type", "refresh_token")], "application/x-www-form-urlencoded", "invalid_request"),
                    (
                        [("grant_type", "authorization_code"), ("grant_type", "refresh_token")], "application/x-www-form-urlencoded",
                        "invalid_request"
                    ),
                    ([("grant_type", "authorization_code"), ("code", "x")], "application/json", "invalid_request"),
                ]
                for (form, contentType, error) in cases {
                    let response = try await postForm("\(base)/token", form, basic: auth, contentType: contentType, with: client)
                    #expect(response.status == 400, "\(form)")
                    #expect(try Self.json(response)["error"] == .string(error), "\(form)")
                    #expect(response.headers.first(name: "Cache-Control") == "no-store")
                }
                var oversized = HTTPClientRequest(url: "\(base)/token")
                oversized.method = .POST
                oversized.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
                oversized.body = .bytes(ByteBuffer(repeating: UInt8(ascii: "a"), count: 64 * 1024))
                let response = try await send(oversized, with: client)
                #expect(response.status == 400)
                #expect(try Self.json(response)["error"] == .string("invalid_request"))
            }
        }
    }

    @Test("codes expire after the configured lifetime")
    func codeExpiry() async throws {
        let clock = ManualClock()
        try await withEmbeddedServer(testConfiguration(codeLifetime: 30), clock: clock) { server, base in
            try await withHTTPClient { client in
                let live = try await Self.code(server, base, with: client)
                clock.advance(by: .seconds(29))
                #expect(try await Self.exchange(base, code: live, with: client).status == 200)

                let expired = try await Self.code(server, base, with: client)
                clock.advance(by: .seconds(30))
                let response = try await Self.exchange(base, code: expired, with: client)
                #expect(response.status == 400)
                #expect(try Self.json(response)["error"] == .string("invalid_grant"))
                #expect(response.body.contains("expired"))
            }
        }
    }

    @Test("access tokens expire after expires_in")
    func accessTokenExpiry() async throws {
        let clock = ManualClock()
        try await withEmbeddedServer(clock: clock) { server, base in
            try await withHTTPClient { client in
                let body = try Self.json(
                    try await Self.exchange(base, code: try await Self.code(server, base, with: client), with: client)
                )
                guard case .string(let access) = body["access_token"] else { throw TestFailure("no token") }
                clock.advance(by: .seconds(3599))
                #expect(try await Self.userinfo(base, token: access, with: client) == 200)
                clock.advance(by: .seconds(1))
                #expect(try await Self.userinfo(base, token: access, with: client) == 401)
            }
        }
    }
}
