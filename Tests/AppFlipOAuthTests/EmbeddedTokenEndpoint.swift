import AppFlipConfiguration
import AppFlipGoogle
import AppFlipOAuth
import AsyncHTTPClient
import Logging

extension EmbeddedAuthorizationServer {
    /// Google's side of step 4 against this server, for a configured client.
    func tokenEndpointClient(clientID: String, httpClient: HTTPClient, logger: Logger) async throws -> TokenEndpointClient {
        guard let client = configuration.clients.first(where: { $0.id == clientID }) else {
            throw TestFailure("client \(clientID) is not in the OAuth server configuration")
        }
        return TokenEndpointClient(
            tokenURL: try await baseURL() + "/token",
            clientID: client.id,
            clientSecret: client.secret,
            httpClient: httpClient,
            logger: logger
        )
    }
}
