import AppFlipTestSupport
import AsyncHTTPClient

/// Where the fixtures' Python lives: one folder per fixture in this target's own folder, each with its
/// `setup.sh` (`Tests/ThirdPartyFixtures/django-oauth-toolkit`, `oauth-servers`, `oauth-clients`, `junit`).
enum ThirdPartyFixture {
    /// The absolute path of the fixture folder `name`.
    static func folder(_ name: String) -> String {
        Repository.path("Tests/ThirdPartyFixtures/" + name)
    }
}

extension ThirdPartyFixture {
    /// Runs `body` with an HTTP client that follows no redirect, as a browser's first request sees a login's
    /// answer, and shuts the client down after it, whether it throws or not.
    static func withHTTPClient<Result: Sendable>(_ body: (HTTPClient) async throws -> Result) async throws -> Result {
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        do {
            let result = try await body(client)
            try await client.shutdown()
            return result
        } catch {
            try? await client.shutdown()
            throw error
        }
    }
}
