import AppFlipTestSupport
import AppFlipTesting
import FoundationEssentials
import Testing

/// The shipped `Config/` as appflipd loads it: the daemon configuration, `oauth.json` beside it, and the
/// demo partner's `appflip` handler with `embedded` authorization.
@Suite struct ShippedPartnerConfigTests {
    static let root = #filePath.components(separatedBy: "/Tests/").first!

    @Test func appflipdChecksTheShippedConfigurationWithItsOAuthServer() async throws {
        let outcome = try await TestCommand.run(
            "appflipd",
            ["--check", "--config", Self.root + "/Config/appflipd.json", "--socket", "/tmp/appflip-check-unused.sock"]
        )
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("OAuth server: \(Self.root)/Config/oauth.json"))
    }

    @Test func anOAuthConfigurationThatDoesNotExistIsRefused() async throws {
        let outcome = try await TestCommand.run(
            "appflipd",
            [
                "--check", "--config", Self.root + "/Config/appflipd.json", "--oauth-config", "/nonexistent/oauth.json", "--socket",
                "/tmp/appflip-check-unused.sock",
            ]
        )
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("/nonexistent/oauth.json"))
    }
}
