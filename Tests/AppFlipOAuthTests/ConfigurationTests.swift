import FoundationEssentials
import Testing

@testable import AppFlipOAuth

@Suite struct ConfigurationTests {
    /// `Config/oauth.json`, found from this file's path.
    static let shippedConfigPath: String = {
        var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)
        return components.joined(separator: "/") + "/Config/oauth.json"
    }()

    @Test("the shipped Config/oauth.json loads and registers the 12 App Flip URIs")
    func shippedConfiguration() throws {
        let configuration = try OAuthServerConfiguration.load(from: Self.shippedConfigPath)
        #expect(configuration.port == OAuthServerConfiguration.defaultPort)
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.authorizationCodeLifetime == 60)
        let client = try #require(configuration.clients.first)
        #expect(Set(appFlipRedirectURIs).isSubset(of: client.redirectURIs))
        #expect(client.redirectURIs.contains("https://oauth-redirect.googleusercontent.com/r/appflip-demo"))
        #expect(!"\(client)".contains(client.secret))
        #expect(!"\(configuration)".contains(client.secret))
        #expect(!String(reflecting: configuration).contains(client.secret))
    }

    @Test("defaults apply to omitted keys")
    func defaults() throws {
        let json = #"{"clients":[{"client_id":"c","client_secret":"0123456789abcdef","redirect_uris":["https://x/a"],"scopes":[]}],"users":[{"username":"u"}]}"#
        let configuration = try JSONDecoder().decode(OAuthServerConfiguration.self, from: Data(json.utf8))
        #expect(configuration.port == 8471)
        #expect(configuration.authorizationCodeLifetime == 60)
        #expect(configuration.accessTokenLifetime == 3600)
        #expect(configuration.users == [TestUser(username: "u")])
    }

    @Test("unsafe configurations are refused")
    func validation() {
        let valid = testConfiguration()
        var broken: [OAuthServerConfiguration] = []
        var copy = valid
        copy.host = "0.0.0.0"
        broken.append(copy)
        copy = valid
        copy.authorizationCodeLifetime = 601
        broken.append(copy)
        copy = valid
        copy.clients.append(testClient)
        broken.append(copy)
        copy = valid
        copy.clients[0].secret = "short"
        broken.append(copy)
        copy = valid
        copy.clients[0].redirectURIs.append("https://x/a#fragment")
        broken.append(copy)
        copy = valid
        copy.users.append(TestUser(username: "alice"))
        broken.append(copy)
        copy = valid
        copy.port = 70000
        broken.append(copy)
        #expect((try? valid.validate()) != nil)
        for configuration in broken {
            #expect(throws: ConfigurationError.self) { try configuration.validate() }
        }
    }

    @Test("a secret never appears in a configuration error")
    func secretsStayOutOfErrors() {
        var configuration = testConfiguration()
        configuration.clients[0].secret = "tiny"
        do {
            try configuration.validate()
            Issue.record("expected a validation error")
        } catch {
            #expect(!error.description.contains("tiny"))
        }
    }
}
