import AppFlipConfiguration
import AppFlipCore
import AppFlipHTTPClient
import AsyncHTTPClient
import NIOHTTP1
import Testing

@testable import AppFlipOAuth

/// `GET /authorize` of the embedded server, over real HTTP.
@Suite struct EmbeddedAuthorizeTests {
    static let appFlipURI = appFlipRedirectURIs[3]

    static func authorize(
        _ base: String,
        clientID: String? = testClient.id,
        redirectURI: String? = appFlipURI,
        extra: [(String, String)] = [("response_type", "code"), ("state", "s-1")]
    ) -> String {
        var query = FormParameters()
        if let clientID { query.append("client_id", clientID) }
        if let redirectURI { query.append("redirect_uri", redirectURI) }
        for (name, value) in extra { query.append(name, value) }
        return "\(base)/authorize?\(query.encoded)"
    }

    static func cookie(_ server: EmbeddedAuthorizationServer, _ user: String = "alice") throws -> String {
        guard case .cookie(let cookie) = server.sessionCredential(for: user) else {
            throw TestFailure("no session for \(user)")
        }
        return cookie
    }

    @Test("every registered URI, App Flip and web, gets a code and its state back")
    func allRegisteredURIs() async throws {
        let uris = appFlipRedirectURIs + webRedirectURIs
        #expect(uris.count == 14)
        try await withEmbeddedServer { server, base in
            try await withHTTPClient { client in
                for uri in uris {
                    let response = try await get(
                        Self.authorize(base, redirectURI: uri),
                        cookie: try Self.cookie(server),
                        with: client
                    )
                    #expect(response.status == 302)
                    let location = try #require(response.location)
                    #expect(location.hasPrefix(uri + "?"))
                    let query = try queryParameters(of: location)
                    #expect(query["state"] == "s-1")
                    #expect(query["code"]?.isEmpty == false)
                    #expect(response.headers.first(name: "Cache-Control") == "no-store")
                }
            }
        }
    }

    @Test(
        "lookalike redirect URIs get a 400 page and never a redirect",
        arguments: [
            appFlipRedirectURIs[0] + "/",
            appFlipRedirectURIs[0] + "?x=1",
            appFlipRedirectURIs[0] + "#f",
            "https://oauth-redirect.googleusercontent.com:443/a/com.google.Chromecast",
            "https://OAUTH-REDIRECT.googleusercontent.com/a/com.google.Chromecast",
            "https://evil@oauth-redirect.googleusercontent.com/a/com.google.Chromecast",
            "http://oauth-redirect.googleusercontent.com/a/com.google.Chromecast",
            "https://oauth-redirect.googleusercontent.com/a/com.google.chromecast",
            "https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast.evil",
            "https://oauth-redirect.googleusercontent.com.evil.example/a/com.google.Chromecast",
            "https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast ",
            "https://oauth-redirect.googleusercontent.com/a/com.google.%43hromecast",
            "https://oauth-redirect.googleusercontent.com/r/another-project",
            "",
        ]
    )
    func lookalikeRedirectURIs(uri: String) async throws {
        try await withEmbeddedServer { server, base in
            try await withHTTPClient { client in
                let response = try await get(Self.authorize(base, redirectURI: uri), cookie: try Self.cookie(server), with: client)
                #expect(response.status == 400)
                #expect(response.location == nil)
                #expect(response.body.contains("redirect_uri"))
            }
        }
    }

    @Test("client_id and redirect_uri problems are pages, not redirects")
    func untrustedClientOrRedirect() async throws {
        try await withEmbeddedServer { server, base in
            try await withHTTPClient { client in
                let cookie = try Self.cookie(server)
                let cases: [(String, String)] = [
                    (Self.authorize(base, clientID: nil), "client_id is missing"),
                    (Self.authorize(base, clientID: "unknown"), "client_id is not a registered client"),
                    (Self.authorize(base, clientID: "PARTNER-CLIENT"), "client_id is not a registered client"),
                    (Self.authorize(base, redirectURI: nil), "redirect_uri is missing"),
                    // otherClient only registered the first App Flip URI.
                    (Self.authorize(base, clientID: otherClient.id), "not registered for this client"),
                    (Self.authorize(base) + "&client_id=partner-client", "client_id is repeated"),
                    (Self.authorize(base) + "&redirect_uri=x", "redirect_uri is repeated"),
                    (Self.authorize(base) + "&x=%C3%28", "malformed"),
                ]
                for (url, reason) in cases {
                    let response = try await get(url, cookie: cookie, with: client)
                    #expect(response.status == 400, "\(reason)")
                    #expect(response.location == nil, "\(reason)")
                    #expect(response.body.contains(reason), "\(response.body)")
                }
            }
        }
    }

    @Test("other errors redirect with error, error_description and state")
    func redirectedErrors() async throws {
        try await withEmbeddedServer { server, base in
            try await withHTTPClient { client in
                let cookie = try Self.cookie(server)
                let cases: [([(String, String)], OAuthErrorCode)] = [
                    ([("state", "s-1")], .invalidRequest),
                    ([("response_type", "token"), ("state", "s-1")], .unsupportedResponseType),
                    ([("response_type", "code"), ("state", "s-1"), ("scope", "profile admin")], .invalidScope),
                    ([("response_type", "code"), ("state", "s-1"), ("state", "s-2")], .invalidRequest),
                    ([("response_type", "code"), ("state", "s-1"), ("code_challenge_method", "S256")], .invalidRequest),
                    (
                        [
                            ("response_type", "code"), ("state", "s-1"), ("code_challenge", String(repeating: "a", count: 43)),
                            ("code_challenge_method", "S512"),
                        ], .invalidRequest
                    ),
                    ([("response_type", "code"), ("state", "s-1"), ("code_challenge", "too-short")], .invalidRequest),
                ]
                for (extra, error) in cases {
                    let response = try await get(Self.authorize(base, extra: extra), cookie: cookie, with: client)
                    #expect(response.status == 302)
                    let location = try #require(response.location)
                    #expect(location.hasPrefix(Self.appFlipURI + "?"))
                    let query = try queryParameters(of: location)
                    #expect(query["error"] == error.rawValue, "\(extra)")
                    #expect(query["error_description"]?.isEmpty == false)
                    #expect(query["code"] == nil)
                    if extra.filter({ $0.0 == "state" }).count == 1 { #expect(query["state"] == "s-1") }
                }
            }
        }
    }

    @Test("hostile states are echoed exactly, encoded")
    func hostileState() async throws {
        let states = ["a b+c", "&code=forged", "%00", "ü🙂", "x\ny", String(repeating: "s", count: 2000)]
        try await withEmbeddedServer { server, base in
            try await withHTTPClient { client in
                for state in states {
                    let response = try await get(
                        Self.authorize(base, extra: [("response_type", "code"), ("state", state)]),
                        cookie: try Self.cookie(server),
                        with: client
                    )
                    let query = try queryParameters(of: try #require(response.location))
                    #expect(query["state"] == state)
                    #expect(query.repeatedNames.isEmpty)
                    #expect(query.pairs.map(\.name).sorted() == ["code", "state"])
                }
            }
        }
    }

    @Test("without a valid session: 401 sign-in page, no code, no redirect")
    func signInRequired() async throws {
        try await withEmbeddedServer { server, base in
            try await withHTTPClient { client in
                for cookie in [nil, "appflip_session=forged", "other=\(try Self.cookie(server).split(separator: "=")[1])"] {
                    let response = try await get(Self.authorize(base), cookie: cookie, with: client)
                    #expect(response.status == 401)
                    #expect(response.location == nil)
                }
            }
        }
    }

    @Test("a disabled user is denied: access_denied")
    func disabledUser() async throws {
        try await withEmbeddedServer { server, base in
            try await withHTTPClient { client in
                let response = try await get(Self.authorize(base), cookie: try Self.cookie(server, "dave"), with: client)
                let query = try queryParameters(of: try #require(response.location))
                #expect(query["error"] == "access_denied")
                #expect(query["state"] == "s-1")
            }
        }
    }

    @Test("sessions are per server: another server's cookie does not sign in")
    func sessionsDifferPerServer() throws {
        let first = try EmbeddedAuthorizationServer(configuration: testConfiguration(), logger: testLogger)
        let second = try EmbeddedAuthorizationServer(configuration: testConfiguration(), logger: testLogger)
        #expect(first.sessionCredential(for: "alice") != second.sessionCredential(for: "alice"))
        #expect(first.sessionCredential(for: "nobody") == nil)
        #expect(!"\(first.sessionCredential(for: "alice")!)".contains(try Self.cookie(first)))
    }
}
