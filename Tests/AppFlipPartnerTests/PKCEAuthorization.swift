import AppFlipCore
import AppFlipHTTPClient
import AppFlipOAuth
import AppFlipTesting
import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// A browser-style `GET /authorize` at the embedded server with a PKCE challenge, as alice: App Flip's
/// own step 3 never sends one, so PKCE is exercised at the same server directly.
enum PKCEAuthorization {
    struct NoCode: Error, CustomStringConvertible {
        var description: String
    }

    static func code(from daemon: TestDaemon, challenge: PKCEChallenge, redirectURI: String) async throws -> String {
        guard case .cookie(let cookie)? = daemon.oauthServer!.sessionCredential(for: "alice") else {
            throw NoCode(description: "no session for alice")
        }
        let query = FormEncoding.encode([
            ("response_type", "code"), ("client_id", TestPartner.clientID), ("redirect_uri", redirectURI), ("scope", "profile"),
            ("state", "pkce"), ("code_challenge", challenge.value), ("code_challenge_method", challenge.method.rawValue),
        ])
        var request = HTTPClientRequest(url: try await daemon.oauthServer!.baseURL() + "/authorize?" + query)
        request.headers.add(name: "Cookie", value: cookie)
        let response = try await daemon.httpClient!.execute(request, timeout: .seconds(5))
        guard response.status == .found, let location = response.headers.first(name: "Location"),
            case .code(let code)? = FlipResultChecker(redirectURI: redirectURI, state: "pkce").check(location).outcome
        else {
            throw NoCode(description: "HTTP \(response.status.code) without a code")
        }
        return code
    }
}
