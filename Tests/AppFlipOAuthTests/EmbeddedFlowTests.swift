import AppFlipConfiguration
import AppFlipCore
import AppFlipGoogle
import AppFlipHTTPClient
import AsyncHTTPClient
import Testing

@testable import AppFlipOAuth

/// Steps 3 and 4 against the embedded server through the same clients used for remote servers.
@Suite struct EmbeddedFlowTests {
    @Test(
        "step 3 through AuthorizationEndpoint, step 4 through TokenEndpointClient, then refresh",
        arguments: [
            ClientAuthMethod.post, .basic,
        ]
    )
    func fullFlow(authentication: ClientAuthMethod) async throws {
        try await withEmbeddedServer { server, base in
            try await withHTTPClient { client in
                let redirectURI = appFlipRedirectURIs[4]
                let endpoint = try await server.authorizationEndpoint(
                    signedInAs: "alice",
                    httpClient: client,
                    logger: testLogger
                )
                #expect(endpoint.url == "\(base)/authorize")
                let code = try await endpoint.authorizationCode(
                    for: AuthorizationRequest(clientID: testClient.id, redirectURI: redirectURI, scopes: ["devices"])
                )
                var tokens = try await server.tokenEndpointClient(
                    clientID: testClient.id,
                    httpClient: client,
                    logger: testLogger
                )
                tokens.authentication = authentication
                #expect(tokens.tokenURL == "\(base)/token")
                let response = try await tokens.exchange(code: code, redirectURI: redirectURI)
                let report = response.report
                #expect(report.violations == [])
                #expect(report.accessTokenFormat == .opaque)
                #expect(report.refreshTokenIssued)
                #expect(report.scopes == ["devices"])
                #expect(report.expiresIn == 3600)
                #expect(!report.summary.contains(response.accessToken))
                #expect(!"\(response)".contains(response.accessToken))
                #expect(!"\(response)".contains(try #require(response.refreshToken)))

                let refreshed = try await tokens.refresh(refreshToken: try #require(response.refreshToken))
                #expect(refreshed.accessToken != response.accessToken)
                #expect(refreshed.report.violations == [])

                // Replay: Google's server would get invalid_grant.
                await #expect(
                    throws: TokenEndpointFailure.endpoint(
                        status: 400,
                        error: "invalid_grant",
                        description: "the authorization code was already used; the tokens issued from it are revoked"
                    )
                ) {
                    try await tokens.exchange(code: code, redirectURI: redirectURI)
                }
                await #expect(
                    throws: TokenEndpointFailure.endpoint(
                        status: 400,
                        error: "invalid_grant",
                        description: "the refresh token is unknown or revoked"
                    )
                ) {
                    try await tokens.refresh(refreshToken: "invalid-refresh-token")
                }
            }
        }
    }

    @Test("64 concurrent flows each get their own code and tokens")
    func concurrentFlows() async throws {
        try await withEmbeddedServer { server, _ in
            try await withHTTPClient { client in
                let endpoint = try await server.authorizationEndpoint(signedInAs: "alice", httpClient: client, logger: testLogger)
                let tokens = try await server.tokenEndpointClient(clientID: testClient.id, httpClient: client, logger: testLogger)
                let results = try await withThrowingTaskGroup(of: (String, String).self) { group in
                    for index in 0..<64 {
                        group.addTask {
                            let uri = appFlipRedirectURIs[index % 12]
                            let code = try await endpoint.authorizationCode(
                                for: AuthorizationRequest(clientID: testClient.id, redirectURI: uri, scopes: [])
                            )
                            return (code, try await tokens.exchange(code: code, redirectURI: uri).accessToken)
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(results.count == 64)
                #expect(Set(results.map(\.0)).count == 64)
                #expect(Set(results.map(\.1)).count == 64)
            }
        }
    }

    @Test("an unknown user is a configuration error")
    func unknownUser() async throws {
        _ = try await withEmbeddedServer { server, _ in
            try await withHTTPClient { client in
                await #expect(throws: ConfigurationError.self) {
                    try await server.authorizationEndpoint(signedInAs: "mallory", httpClient: client, logger: testLogger)
                }
            }
        }
    }

    @Test("without a session the embedded server answers 401, which is cancelled; a disabled user is unrecoverable")
    func failures() async throws {
        try await withEmbeddedServer { server, base in
            try await withHTTPClient { client in
                let request = AuthorizationRequest(
                    clientID: testClient.id,
                    redirectURI: appFlipRedirectURIs[0],
                    scopes: []
                )
                let cases: [(SessionCredential?, FlipErrorCode)] = [
                    (nil, .cancelled),
                    (.cookie("appflip_session=guess"), .cancelled),
                    (server.sessionCredential(for: "dave"), .unrecoverable),
                ]
                for (credential, flipError) in cases {
                    let endpoint = AuthorizationEndpoint(
                        url: "\(base)/authorize",
                        credential: credential,
                        httpClient: client,
                        logger: testLogger
                    )
                    await #expect(throws: AuthorizationFailure.self) {
                        try await endpoint.authorizationCode(for: request)
                    }
                    do throws(AuthorizationFailure) {
                        _ = try await endpoint.authorizationCode(for: request)
                    } catch {
                        #expect(error.flipError == flipError)
                    }
                }
                let wrongClient = AuthorizationEndpoint(
                    url: "\(base)/authorize",
                    credential: server.sessionCredential(for: "alice"),
                    httpClient: client,
                    logger: testLogger
                )
                do throws(AuthorizationFailure) {
                    _ = try await wrongClient.authorizationCode(
                        for: AuthorizationRequest(clientID: "unknown", redirectURI: appFlipRedirectURIs[0], scopes: [])
                    )
                    Issue.record("an unknown client got a code")
                } catch {
                    #expect(error.flipError == .cancelled)
                    #expect(error.reason.hasPrefix("HTTP 400"))
                }
            }
        }
    }
}
