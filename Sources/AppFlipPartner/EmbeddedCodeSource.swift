import AppFlipConfiguration
import AppFlipCore
import AppFlipDaemon
import AppFlipHTTPClient
import AppFlipOAuth
import AsyncHTTPClient
import Logging

/// Step 3 against the embedded server: the same HTTP call as for a remote endpoint, with the user's
/// session, once the server listens.
struct EmbeddedCodeSource: AuthorizationCodeSource {
    let server: EmbeddedAuthorizationServer
    let user: String
    let httpClient: HTTPClient
    let timeout: Duration
    let logger: Logger

    func authorizationCode(for request: AuthorizationRequest) async throws(AuthorizationFailure) -> String {
        let endpoint: AuthorizationEndpoint
        do {
            endpoint = try await server.authorizationEndpoint(signedInAs: user, httpClient: httpClient, timeout: timeout, logger: logger)
        } catch {
            throw AuthorizationFailure(.cancelled, reason: "the embedded OAuth server is not serving: \(error)")
        }
        return try await endpoint.authorizationCode(for: request)
    }
}
